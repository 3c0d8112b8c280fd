/**
 * The {@code quiver} command. Runs on the module path with the backends it finds there. Loads the
 * libraries {@code quiver check} is given and the C baselines of {@code quiver bench} (restricted FFM calls):
 * grant it and {@code dev.quiver.testkit} native access.
 */
module dev.quiver.cli {
    requires transitive dev.quiver.api;   // dev.quiver.cli.bench's signatures use its types
    requires dev.quiver.check;
    requires info.picocli;
    requires dev.quiver.testkit;
    exports dev.quiver.cli.bench;
    opens dev.quiver.cli.bench to dev.quiver.testkit;
    opens dev.quiver.cli to info.picocli;
}
