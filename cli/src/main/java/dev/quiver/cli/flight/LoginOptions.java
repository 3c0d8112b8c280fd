package dev.quiver.cli.flight;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The login options both {@code quiver flight} commands take ({@code --user}, {@code --password-file}), as a
 * picocli mixin. The password comes from the first line of a file or from the environment variable
 * {@code QUIVER_FLIGHT_PASSWORD}; never from the command line, where other users of the machine could read it.
 */
final class LoginOptions {
    @Option(names = "--user", description = "the user who logs in (basic, then bearer tokens)")
    String user;

    @Option(names = "--password-file", paramLabel = "FILE", description = "the password is the first line of FILE (default: $QUIVER_FLIGHT_PASSWORD)")
    Path passwordFile;

    /**
     * @return the password, or null if there is no user or no password
     * @throws IOException if the password file cannot be read
     */
    String password() throws IOException {
        if (user == null) {
            return null;
        }
        if (passwordFile == null) {
            return System.getenv("QUIVER_FLIGHT_PASSWORD");
        }
        List<String> lines = Files.readAllLines(passwordFile);
        return lines.isEmpty() ? "" : lines.getFirst();
    }

    /**
     * @param spec the command, for the usage error
     * @return the password, or null if there is no user
     * @throws picocli.CommandLine.ParameterException if there is a user but no password
     * @throws IOException if the password file cannot be read
     */
    String requiredPassword(picocli.CommandLine.Model.CommandSpec spec) throws IOException {
        String password = password();
        if (user != null && password == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--user " + user
                    + " needs a password: set QUIVER_FLIGHT_PASSWORD or give --password-file FILE");
        }
        return password;
    }
}
