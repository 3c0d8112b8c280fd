package dev.quiver.cli.flight;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;

/** The server addresses the flight commands take: {@code grpc+tcp://HOST:PORT}, {@code grpc+tls://HOST:PORT}. */
final class FlightUris {
    private static final Set<String> SCHEMES = Set.of("grpc", "grpc+tcp", "grpc+tls");

    private FlightUris() {}

    /**
     * @param spec the command, for the usage error
     * @param text what the user gave
     * @throws ParameterException if it is not a Flight address with a host and a port
     */
    static void check(CommandSpec spec, String text) {
        URI parsed;
        try {
            parsed = new URI(text);
        } catch (URISyntaxException e) {
            throw new ParameterException(spec.commandLine(), "URI " + text + " is not a URI: " + e.getReason());
        }
        if (parsed.getScheme() == null || !SCHEMES.contains(parsed.getScheme()) || parsed.getHost() == null || parsed.getPort() < 0) {
            throw new ParameterException(spec.commandLine(), "URI must be grpc+tcp://HOST:PORT or grpc+tls://HOST:PORT, not " + text);
        }
    }
}
