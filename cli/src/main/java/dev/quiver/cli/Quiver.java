package dev.quiver.cli;

import dev.quiver.cli.flight.FlightCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code quiver} command. */
@Command(name = "quiver", mixinStandardHelpOptions = true, version = "quiver 0.1.0",
        description = "Apache Arrow data on any device, through the Arrow C Device Data Interface.",
        subcommands = {DevicesCommand.class, SelftestCommand.class, BenchCommand.class, CheckCommand.class, FlightCommand.class,
                CommandLine.HelpCommand.class})
public final class Quiver {

    /**
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Runs a command without exiting, for tests and embedding.
     *
     * @param args command-line arguments
     * @return the exit code
     */
    public static int run(String... args) {
        return new CommandLine(new Quiver()).execute(args);
    }
}
