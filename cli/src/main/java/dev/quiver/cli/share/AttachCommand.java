package dev.quiver.cli.share;

import dev.quiver.Devices;
import dev.quiver.cli.DeviceNames;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code quiver attach}: receives the stream another process shares with {@code quiver share} (or any owner of
 * the protocol), showing progress on a terminal and a summary of how many batches came zero-copy.
 */
@Command(name = "attach", mixinStandardHelpOptions = true,
        description = {"Receive the arrays another process on this machine shares at SOCKET.",
                "Prints the owner and the schema, then a summary: batches zero-copy and copied."})
public final class AttachCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SOCKET", description = "the socket 'quiver share' printed")
    Path socket;

    @Option(names = "--device", paramLabel = "TYPE[:ID]", defaultValue = "cpu",
            description = "where the batches land: with no copy where the owner shares them on that device ('quiver share"
                    + " --device'), else received on the CPU and copied there (default: ${DEFAULT-VALUE})")
    String device;

    @Option(names = "--show", paramLabel = "N", description = "print the first N rows")
    int show;

    @Option(names = "--validate", description = "also validate every value of every batch (offsets, UTF-8, ...)")
    boolean validate;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "0",
            description = "give up when the owner sends nothing for SECONDS (default: wait as long as it lives)")
    long timeoutSeconds;

    /** Creates the command with its defaults; picocli sets the options and the socket. */
    public AttachCommand() {
    }

    @Override
    public Integer call() throws Exception {
        if (show < 0) {
            throw new ParameterException(spec.commandLine(), "--show needs N >= 0");
        }
        if (timeoutSeconds < 0) {
            throw new ParameterException(spec.commandLine(), "--timeout needs SECONDS >= 0 (0: no timeout)");
        }
        dev.quiver.Device target = DeviceNames.option(spec, "--device", device, Devices.system());
        Attaching.Settings settings = new Attaching.Settings(socket, target, show, validate,
                java.time.Duration.ofSeconds(timeoutSeconds));
        return Attaching.receive(settings, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
