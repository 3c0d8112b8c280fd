package dev.quiver.cli.flight;

import picocli.CommandLine.Command;

/** {@code quiver flight}: the Arrow Flight commands. */
@Command(name = "flight", mixinStandardHelpOptions = true,
        description = "Serve and fetch device arrays over Arrow Flight.",
        subcommands = {FlightServeCommand.class, FlightGetCommand.class, FlightListCommand.class, FlightPutCommand.class})
public final class FlightCommand {
}
