/**
 * Test support shared by Quiver's own tests and the TCK: C sources compiled at test time and loaded
 * through FFM, and a test double of a device backend on host memory ({@code dev.quiver.testkit.backend}).
 * Makes restricted calls (library loading, downcalls, sizing device pointers of the test double): grant it
 * native access.
 */
module dev.quiver.testkit {
    requires transitive dev.quiver.spi;   // the test double's signatures use its types
    exports dev.quiver.testkit;
    exports dev.quiver.testkit.backend;
}
