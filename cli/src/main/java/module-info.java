/**
 * The {@code quiver} command. Runs on the module path with the backends it finds there. Loads the libraries
 * {@code quiver check} is given (restricted FFM calls): grant it native access. {@code quiver bench} alone needs
 * its C baselines ({@code dev.quiver.baselines}) and {@code dev.quiver.cbuild}, which compiles and loads them: the
 * launcher adds them to that command's module path ({@code --add-modules dev.quiver.baselines}, and native access
 * for {@code dev.quiver.cbuild}), and every other command runs without them (hence {@code requires static}).
 * {@code quiver flight} needs Quiver's Flight module and Arrow Flight, which run on the class path only: the
 * launcher runs that command (and {@code bench --flight}) on the class path, and the module path never resolves them
 * (hence {@code requires static}). {@code quiver share} and {@code quiver attach} need {@code dev.quiver.share} (memory
 * files and sockets): grant it native access too.
 */
module dev.quiver.cli {
    requires dev.quiver.api;
    requires dev.quiver.check;
    requires info.picocli;
    requires java.management;
    requires static dev.quiver.baselines;
    requires dev.quiver.share;
    requires static dev.quiver.flight;
    requires static org.apache.arrow.flight.core;
    requires static org.apache.arrow.memory.core;
    requires static dev.quiver.arrowjava;
    opens dev.quiver.cli to info.picocli;
    opens dev.quiver.cli.flight to info.picocli;
    opens dev.quiver.cli.share to info.picocli;
}
