package dev.quiver.cli.flight;

import dev.quiver.Devices;
import dev.quiver.cli.DeviceNames;
import dev.quiver.flight.Delivery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
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

    @Parameters(index = "1", paramLabel = "TICKET", description = "the ticket the server printed or lists; with --all-endpoints, the stream's name")
    String ticket;

    @Option(names = "--all-endpoints", description = "fetch every endpoint of the stream named by the second argument at once, as one stream")
    boolean allEndpoints;

    @Option(names = "--as-they-come", description = "with --all-endpoints, take each batch as it lands instead of endpoint by endpoint")
    boolean asTheyCome;

    @Option(names = "--device", description = "where the batches land, TYPE[:ID], e.g. opencl or vulkan:0 (default: ${DEFAULT-VALUE})", defaultValue = "cpu")
    String device;

    @Mixin
    ClientOptions client;

    @Option(names = "--output", paramLabel = "FILE", description = "also write the batches to this Arrow IPC file (copied back to the host)")
    Path output;

    @Override
    public Integer call() throws Exception {
        FlightFetching.Settings settings = client.settings(ticket, DeviceNames.option(spec, "--device", device, Devices.system()), output);
        if (asTheyCome && !allEndpoints) {
            throw new ParameterException(spec.commandLine(), "--as-they-come needs --all-endpoints");
        }
        Delivery endpoints = !allEndpoints ? null : asTheyCome ? Delivery.AS_THEY_COME : Delivery.IN_ORDER;
        return FlightFetching.fetch(settings, endpoints, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
