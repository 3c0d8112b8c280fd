package dev.quiver.cli;

import dev.quiver.cli.flight.FlightCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;

/**
 * Entry point of the {@code quiver} command. Colours its output only on a terminal, and never where
 * {@code NO_COLOR} is set ({@link Style}).
 */
@Command(name = "quiver", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
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
        CommandLine commandLine = new CommandLine(new Quiver());
        Help.Ansi ansi = Style.detect().colour() ? Help.Ansi.ON : Help.Ansi.OFF;
        commandLine.setColorScheme(Help.defaultColorScheme(ansi));
        return commandLine.execute(args);
    }
}
