package dev.quiver.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import java.util.List;
import java.util.Optional;

/**
 * Whether {@code quiver bench} can run here: it needs its C baselines ({@code quiver-baselines}) and
 * {@code quiver-cbuild}, which compiles them at run time, and no other command does. They are not on the CLI's own
 * path ({@code cli/target/lib}); the {@code quiver} launcher adds {@code cli/target/lib-bench} for {@code bench}
 * alone. Without them {@code bench} says what is missing and exits with 1; its {@code --help} still works.
 * Stateless; thread-safe.
 */
final class BenchBaselines {
    /** A class of each module bench needs, as a resource: found only where its module is on the path and resolved. */
    private static final List<String> NEEDED = List.of("dev/quiver/baselines/CBaselines.class", "dev/quiver/cbuild/CompiledLibrary.class");

    private BenchBaselines() {}

    /** {@return why bench cannot run here, or empty if it can} */
    static Optional<String> missing() {
        ClassLoader loader = BenchBaselines.class.getClassLoader();
        if (NEEDED.stream().allMatch(name -> loader.getResource(name) != null)) {
            return Optional.empty();
        }
        return Optional.of("needs its C baselines, quiver-baselines and quiver-cbuild (cli/target/lib-bench), which "
                + "are not on this JVM's path: the quiver launcher adds them for bench; on a module path of your own add "
                + "that folder and --add-modules dev.quiver.baselines");
    }

    /**
     * Runs a parsed command line as picocli's default strategy does, except that {@code bench} without its
     * baselines is refused with what is missing.
     *
     * @param parsed the parsed command line
     * @return the exit code
     */
    static int execute(ParseResult parsed) {
        ParseResult last = parsed;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        if (last.commandSpec().userObject() instanceof BenchCommand && !last.isUsageHelpRequested() && !last.isVersionHelpRequested()) {
            Optional<String> missing = missing();
            if (missing.isPresent()) {
                CommandLine command = last.commandSpec().commandLine();
                command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + missing.get());
                command.getErr().flush();
                return 1;
            }
        }
        return new CommandLine.RunLast().execute(parsed);
    }
}
