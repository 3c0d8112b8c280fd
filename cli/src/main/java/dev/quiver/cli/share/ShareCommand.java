package dev.quiver.cli.share;

import dev.quiver.Devices;
import dev.quiver.cli.DeviceNames;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code quiver share}: serves a generated stream to receivers of other processes on this machine through a
 * Unix domain socket, zero-copy from shared memory unless {@code --copy}.
 */
@Command(name = "share", mixinStandardHelpOptions = true,
        description = {"Share a generated stream with other processes on this machine, as memory handles.",
                "Prints the socket to give 'quiver attach', then one line per receiver once it released every batch."})
public final class ShareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--socket", paramLabel = "PATH",
            description = "the socket to listen at, in a directory only you may enter (default: a new private one)")
    Path socket;

    @Option(names = "--generate", paramLabel = "ROWS", defaultValue = "1000",
            description = "rows of the generated stream: int64 id, float64 value, utf8 name (default: ${DEFAULT-VALUE})")
    long rows;

    @Option(names = "--batches", defaultValue = "8", description = "batches of the stream (default: ${DEFAULT-VALUE})")
    int batches;

    @Option(names = "--copy", description = "build the batches in ordinary memory, so that each is copied for the handoff")
    boolean copy;

    @Option(names = "--receivers", paramLabel = "K", defaultValue = "1",
            description = "how many receivers to serve, one after another, before exiting (default: ${DEFAULT-VALUE})")
    int receivers;

    @Option(names = "--seconds", paramLabel = "S", description = "stop waiting for receivers after S seconds (default: wait)")
    long seconds;

    @Option(names = "--device", paramLabel = "TYPE[:ID]", defaultValue = "cpu",
            description = "where the batches live: other than cpu, each is copied onto that device and goes with no copy to"
                    + " receivers on it ('quiver attach --device'), as a host copy to others (default: ${DEFAULT-VALUE})")
    String device;

    /** Creates the command with its defaults; picocli sets the options. */
    public ShareCommand() {
    }

    @Override
    public Integer call() throws Exception {
        if (rows < 1 || batches < 1 || batches > rows) {
            throw new ParameterException(spec.commandLine(), "--generate needs ROWS >= 1 and --batches between 1 and ROWS");
        }
        if (receivers < 1 || seconds < 0) {
            throw new ParameterException(spec.commandLine(), "--receivers needs K >= 1 and --seconds S >= 0");
        }
        dev.quiver.Device on = DeviceNames.option(spec, "--device", device, Devices.system());
        if (copy && on.type() != dev.quiver.DeviceType.CPU) {
            throw new ParameterException(spec.commandLine(), "--copy builds the batches in ordinary host memory; with --device "
                    + device + " they live on the device, and each receiver's device decides whether they are copied");
        }
        Sharing.Settings settings = new Sharing.Settings(socket, rows, batches, copy, receivers, seconds, on);
        return Sharing.serve(settings, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
