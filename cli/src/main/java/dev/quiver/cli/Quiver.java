package dev.quiver.cli;

import dev.quiver.cli.flight.FlightCommand;
import dev.quiver.cli.share.AttachCommand;
import dev.quiver.cli.share.ShareCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Entry point of the {@code quiver} command. Picocli reads a command's annotations when the command is added,
 * so a command line that names a subcommand first gets only that one; any other (help, options, a mistake)
 * gets them all. A bare {@code quiver devices}, which takes no options, runs without picocli at all: its
 * classes are compiled for Java 5, which class data sharing cannot keep, so loading and verifying them
 * would cost that command most of its start-up. Colours its output only on a terminal, and never where
 * {@code NO_COLOR} is set ({@link Style}).
 */
@Command(name = "quiver", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Apache Arrow data on any device, through the Arrow C Device Data Interface.")
public final class Quiver {
    /**
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Runs a command line without exiting, for tests.
     *
     * @param args command-line arguments
     * @return the exit code
     */
    public static int run(String... args) {
        java.util.Optional<String> unknownBackends = BackendNames.unknown();
        if (unknownBackends.isPresent()) {
            System.err.println("quiver: " + unknownBackends.get());
            return 2;
        }
        if (args.length == 1 && args[0].equals("devices")) {
            return new DevicesCommand().call();
        }
        CommandLine line = new CommandLine(new Quiver());
        Map<String, Supplier<Object>> subcommands = subcommands();
        Supplier<Object> named = args.length == 0 ? null : subcommands.get(args[0]);
        if (named != null && !args[0].equals("help")) {
            line.addSubcommand(args[0], named.get());
        } else {
            subcommands.forEach((name, command) -> line.addSubcommand(name, command.get()));
        }
        Help.Ansi ansi = Style.detect().colour() ? Help.Ansi.ON : Help.Ansi.OFF;
        line.setColorScheme(Help.defaultColorScheme(ansi));
        Failures.install(line, args);
        line.setExecutionStrategy(BenchBaselines::execute);
        return line.execute(args);
    }

    private static Map<String, Supplier<Object>> subcommands() {
        Map<String, Supplier<Object>> all = new LinkedHashMap<>();
        all.put("devices", DevicesCommand::new);
        all.put("selftest", SelftestCommand::new);
        all.put("bench", BenchCommand::new);
        all.put("check", CheckCommand::new);
        all.put("flight", FlightCommand::new);
        all.put("share", ShareCommand::new);
        all.put("attach", AttachCommand::new);
        all.put("help", CommandLine.HelpCommand::new);
        return all;
    }
}
