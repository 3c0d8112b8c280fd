package dev.quiver.cli.flight;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code quiver flight get}: fetches a stream onto a device, showing progress (batches, bytes, rate) on a
 * terminal and a summary at the end; optionally writes what arrived to an Arrow IPC file.
 */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = {"Fetch a stream from an Arrow Flight server onto a device.",
                "With --user, logs in with that user and the password in $QUIVER_FLIGHT_PASSWORD (or --password-file)."})
final class FlightGetCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "URI", description = "the server, grpc+tcp://HOST:PORT or grpc+tls://HOST:PORT")
    String uri;

    @Parameters(index = "1", paramLabel = "TICKET", description = "the ticket the server printed or lists")
    String ticket;

    @Option(names = "--device", description = "where the batches land, TYPE[:ID], e.g. opencl or vulkan:0 (default: ${DEFAULT-VALUE})", defaultValue = "cpu")
    String device;

    @Option(names = "--trust", paramLabel = "PEM", description = "certificates to trust for grpc+tls (default: the JVM's)")
    Path trust;

    @Mixin
    LoginOptions login;

    @Option(names = "--output", paramLabel = "FILE", description = "also write the batches to this Arrow IPC file (copied back to the host)")
    Path output;

    @Override
    public Integer call() throws Exception {
        checkUri(uri);
        String password = login.password();
        if (login.user != null && password == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--user " + login.user
                    + " needs a password: set QUIVER_FLIGHT_PASSWORD or give --password-file FILE");
        }
        FlightFetching.Settings settings = new FlightFetching.Settings(uri, ticket, device, trust, login.user, password, output);
        return FlightFetching.fetch(settings, spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /** Refuses, as a usage error, anything but grpc+tcp://HOST:PORT, grpc+tls://HOST:PORT or grpc://HOST:PORT. */
    private void checkUri(String text) {
        java.net.URI parsed;
        try {
            parsed = new java.net.URI(text);
        } catch (java.net.URISyntaxException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "URI " + text + " is not a URI: " + e.getReason());
        }
        String scheme = parsed.getScheme();
        if (scheme == null || !java.util.Set.of("grpc", "grpc+tcp", "grpc+tls").contains(scheme)
                || parsed.getHost() == null || parsed.getPort() < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "URI must be grpc+tcp://HOST:PORT or grpc+tls://HOST:PORT, not " + text);
        }
    }
}
