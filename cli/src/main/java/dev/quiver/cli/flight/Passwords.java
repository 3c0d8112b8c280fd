package dev.quiver.cli.flight;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where {@code quiver flight} takes a password from: the first line of a file, or the environment variable
 * {@code QUIVER_FLIGHT_PASSWORD}; never the command line, where other users of the machine could read it.
 */
final class Passwords {
    private Passwords() {}

    /**
     * @param file a file whose first line is the password, or null to use the environment
     * @return the password, or null if there is none
     * @throws IOException if the file cannot be read
     */
    static String read(Path file) throws IOException {
        if (file == null) {
            return System.getenv("QUIVER_FLIGHT_PASSWORD");
        }
        List<String> lines = Files.readAllLines(file);
        return lines.isEmpty() ? "" : lines.getFirst();
    }
}
