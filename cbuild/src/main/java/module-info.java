/**
 * C sources compiled with the system C compiler into shared libraries, loaded through FFM: what the tests
 * ({@code dev.quiver.testkit}) and the C baselines of the benchmarks ({@code dev.quiver.baselines}) share.
 * JDK only. Makes restricted calls (library loading, downcall handles): grant it native access.
 */
module dev.quiver.cbuild {
    exports dev.quiver.cbuild;
}
