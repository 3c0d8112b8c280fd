/**
 * Test support shared by Quiver's own tests and the TCK: C sources compiled at test time and loaded
 * through FFM. Makes restricted calls (library loading, downcalls): grant it native access.
 */
module dev.quiver.testkit {
    exports dev.quiver.testkit;
}
