package dev.quiver.cli.flight;

import dev.quiver.Devices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code quiver flight put}: sends the record batches of an Arrow IPC file (either format) to a server, which
 * lands them on its put device and serves them under the ticket this prints.
 */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = {"Send an Arrow IPC file (file or stream format) to an Arrow Flight server, and print the ticket it serves it under.",
                "With --user, logs in with that user and the password in $QUIVER_FLIGHT_PASSWORD (or --password-file)."})
final class FlightPutCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "1", paramLabel = "FILE", description = "the Arrow IPC file to send")
    Path file;

    @Option(names = "--name", description = "the name to send it under (default: the file's name)")
    String name;

    @Mixin
    ClientOptions client;

    @Mixin
    CompressionOption compression;

    @Override
    public Integer call() throws Exception {
        FlightFetching.Settings settings = client.settings(null, Devices.system().cpu(), null);
        if (!Files.isRegularFile(file)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "no such file: " + file);
        }
        String sentAs = name != null ? name : file.getFileName().toString();
        return FlightCalls.put(settings, FlightCalls.compression(compression.codec()), file, sentAs, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
