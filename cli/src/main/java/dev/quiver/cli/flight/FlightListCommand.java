package dev.quiver.cli.flight;

import dev.quiver.Devices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code quiver flight list}: the streams a server serves, one line each, as {@code flight serve} prints them. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"List the streams an Arrow Flight server serves: name, ticket and rows.",
                "With --user, logs in with that user and the password in $QUIVER_FLIGHT_PASSWORD (or --password-file)."})
final class FlightListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ClientOptions client;

    @Override
    public Integer call() throws Exception {
        return FlightCalls.list(client.settings(null, Devices.system().cpu(), null), spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
