/**
 * The C baselines Quiver is measured against, compiled on first use by {@code dev.quiver.cbuild}, and the
 * record batches the measurements move: what {@code quiver bench} and the JMH benchmarks share, so both
 * compare against the same C with the same data. Needs a C compiler only when a baseline runs.
 */
module dev.quiver.baselines {
    requires transitive dev.quiver.api;   // BenchBatches returns its HostVector
    requires dev.quiver.cbuild;
    exports dev.quiver.baselines;
    opens dev.quiver.baselines to dev.quiver.cbuild;   // its C sources, read as resources
}
