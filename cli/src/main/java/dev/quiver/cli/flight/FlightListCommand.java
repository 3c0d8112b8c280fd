package dev.quiver.cli.flight;

import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.Tickets;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code quiver flight list}: the streams a server serves, one line each, as {@code flight serve} prints them. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"List the streams an Arrow Flight server serves: name, ticket and rows.",
                "With --user, logs in with that user and the password in $QUIVER_FLIGHT_PASSWORD (or --password-file)."})
final class FlightListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "URI", description = "the server, grpc+tcp://HOST:PORT or grpc+tls://HOST:PORT")
    String uri;

    @Option(names = "--trust", paramLabel = "PEM", description = "certificates to trust for grpc+tls (default: the JVM's)")
    Path trust;

    @Mixin
    LoginOptions login;

    @Override
    public Integer call() throws Exception {
        FlightUris.check(spec, uri);
        String password = login.requiredPassword(spec);
        PrintWriter out = spec.commandLine().getOut();
        FlightFetching.Settings settings = new FlightFetching.Settings(uri, null, "cpu", trust, login.user, password, null);
        try (BufferAllocator allocator = new RootAllocator(); DeviceFlightClient client = FlightFetching.connect(settings, allocator)) {
            for (FlightInfo info : client.listFlights()) {
                String name = String.join("/", info.getDescriptor().getPath());
                String ticket = info.getEndpoints().isEmpty() ? "(none)" : Tickets.describe(info.getEndpoints().getFirst().getTicket());
                out.println("stream " + name + " ticket " + ticket + (info.getRecords() >= 0 ? " rows " + info.getRecords() : ""));
            }
        } catch (FlightRuntimeException e) {
            spec.commandLine().getErr().println("quiver flight list: " + e.status().code() + ": " + e.getMessage());
            return 1;
        }
        out.flush();
        return 0;
    }
}
