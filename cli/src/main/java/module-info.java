/**
 * The {@code quiver} command. Runs on the module path with the backends it finds there. Loads the
 * libraries {@code quiver check} is given (a restricted FFM call): grant it native access.
 */
module dev.quiver.cli {
    requires dev.quiver.api;
    requires info.picocli;
    opens dev.quiver.cli to info.picocli;
}
