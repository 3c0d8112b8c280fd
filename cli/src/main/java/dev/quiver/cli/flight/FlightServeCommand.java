package dev.quiver.cli.flight;

import dev.quiver.Devices;
import dev.quiver.cli.DeviceNames;
import dev.quiver.flight.FlightCompression;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code quiver flight serve}: serves Arrow IPC files and, or, generated data from a device until stopped
 * (or for {@code --seconds}), printing each stream's name and ticket.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve Arrow IPC files or generated data over Arrow Flight, from any device.",
                "Prints one line per stream: its name, ticket and row count. With --user, clients log in with that user and the password in $QUIVER_FLIGHT_PASSWORD (or --password-file)."})
final class FlightServeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--file", description = "an Arrow IPC file to serve, in the file or the stream format (repeatable); its file name is the stream's name")
    List<Path> files = List.of();

    @Option(names = "--generate", paramLabel = "ROWS", description = "serve a generated stream 'generated' of ROWS rows (int64 id, float64 value, utf8 name)")
    long generatedRows;

    @Option(names = "--batches", description = "batches of the generated stream (default: ${DEFAULT-VALUE})", defaultValue = "8")
    int batches;

    @Option(names = "--endpoints", description = "serve the generated stream as this many endpoints, each a run of its batches (default: ${DEFAULT-VALUE})",
            defaultValue = "1")
    int endpoints;

    @Option(names = "--device", description = "device the served batches, from files or generated, are copied to before they are sent, TYPE[:ID] (default: ${DEFAULT-VALUE})", defaultValue = "cpu")
    String device;

    @Option(names = "--put-device", description = "device that batches clients put land on, TYPE[:ID] (default: ${DEFAULT-VALUE})", defaultValue = "cpu")
    String putDevice;

    @Option(names = "--host", description = "address to listen on (default: ${DEFAULT-VALUE})", defaultValue = "127.0.0.1")
    String host;

    @Option(names = "--port", description = "port to listen on, 0 for any free one (default: ${DEFAULT-VALUE})", defaultValue = "8815")
    int port;

    @Option(names = "--tls", arity = "2", paramLabel = "PEM", description = "serve over TLS: certificate chain and PKCS#8 private key, PEM files")
    List<Path> tls = List.of();

    @Mixin
    LoginOptions login;

    @Mixin
    CompressionOption compression;

    @Option(names = "--seconds", description = "stop after this many seconds (default: serve until stopped)")
    long seconds;

    @Override
    public Integer call() throws Exception {
        if (files.isEmpty() && generatedRows <= 0) {
            throw new ParameterException(spec.commandLine(), "nothing to serve: give --file or --generate");
        }
        if (endpoints < 1 || endpoints > batches) {
            throw new ParameterException(spec.commandLine(), "--endpoints needs 1 to --batches endpoints, not " + endpoints);
        }
        if (batches < 1 || generatedRows < 0) {
            throw new ParameterException(spec.commandLine(), "--generate needs ROWS >= 1 and --batches >= 1");
        }
        FlightCompression codec = FlightCalls.compression(compression.codec());
        String password = login.password();
        if (login.user != null && (password == null || password.isEmpty())) {
            throw new ParameterException(spec.commandLine(), "--user needs a password: $QUIVER_FLIGHT_PASSWORD or --password-file");
        }
        FlightServing.Settings settings = new FlightServing.Settings(files, generatedRows, batches, DeviceNames.option(spec, "--device", device, Devices.system()),
                DeviceNames.option(spec, "--put-device", putDevice, Devices.system()), host, port,
                tls.isEmpty() ? null : tls.get(0), tls.isEmpty() ? null : tls.get(1), login.user, password, seconds, endpoints, codec);
        return FlightServing.serve(settings, spec.commandLine().getOut());
    }
}
