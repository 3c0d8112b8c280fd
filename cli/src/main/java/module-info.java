/**
 * The {@code quiver} command. Runs on the module path with the backends it finds there. Loads the
 * libraries {@code quiver check} is given and the C baselines of {@code quiver bench} (restricted FFM calls):
 * grant it, {@code dev.quiver.testkit} and {@code dev.quiver.share} (the memory files and sockets of
 * {@code quiver share} and {@code quiver attach}) native access. {@code quiver flight} needs Quiver's Flight module and
 * Arrow Flight, which run on the class path only: the launcher runs that command on the class path, and the
 * module path never resolves them (hence {@code requires static}).
 */
module dev.quiver.cli {
    requires transitive dev.quiver.api;   // dev.quiver.cli.bench's signatures use its types
    requires dev.quiver.check;
    requires info.picocli;
    requires java.management;
    requires dev.quiver.testkit;
    requires dev.quiver.share;   // quiver share and quiver attach; grant it native access too
    requires static dev.quiver.flight;
    requires static org.apache.arrow.flight.core;
    requires static org.apache.arrow.memory.core;
    exports dev.quiver.cli.bench;
    opens dev.quiver.cli.bench to dev.quiver.testkit;
    opens dev.quiver.cli to info.picocli;
    opens dev.quiver.cli.flight to info.picocli;
    opens dev.quiver.cli.share to info.picocli;
}
