/**
 * Test support shared by Quiver's own tests and the TCK: C sources compiled at test time and loaded through
 * FFM (by {@code dev.quiver.cbuild}), and a test double of a device backend on host memory
 * ({@code dev.quiver.testkit.backend}). Makes restricted calls (library loading, downcalls, sizing the test
 * double's device pointers): grant it native access.
 */
module dev.quiver.testkit {
    requires transitive dev.quiver.spi;   // the test double's signatures use its types
    requires dev.quiver.cbuild;
    exports dev.quiver.testkit;
    exports dev.quiver.testkit.backend;
    opens dev.quiver.testkit to dev.quiver.cbuild;   // its C sources, read as resources
}
