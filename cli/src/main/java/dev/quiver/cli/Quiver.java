package dev.quiver.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Entry point of the {@code quiver} command. Picocli reads a command's annotations when the command is added,
 * so a command line that names a subcommand first gets only that one; any other (help, options, a mistake)
 * gets them all.
 */
@Command(name = "quiver", mixinStandardHelpOptions = true, version = "quiver 0.1.0",
        description = "Apache Arrow data on any device, through the Arrow C Device Data Interface.")
public final class Quiver {
    private static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

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
        CommandLine line = new CommandLine(new Quiver());
        Supplier<Object> named = args.length == 0 ? null : SUBCOMMANDS.get(args[0]);
        if (named != null && !args[0].equals("help")) {
            line.addSubcommand(args[0], named.get());
        } else {
            SUBCOMMANDS.forEach((name, command) -> line.addSubcommand(name, command.get()));
        }
        return line.execute(args);
    }

    private static Map<String, Supplier<Object>> subcommands() {
        Map<String, Supplier<Object>> all = new LinkedHashMap<>();
        all.put("devices", DevicesCommand::new);
        all.put("selftest", SelftestCommand::new);
        all.put("bench", BenchCommand::new);
        all.put("check", CheckCommand::new);
        all.put("help", CommandLine.HelpCommand::new);
        return all;
    }
}
