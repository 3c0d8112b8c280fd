package dev.quiver.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * How {@code quiver} reports what went wrong, for every command. A usage error (a bad option or argument) is its
 * message and one line pointing at {@code --help}, exit 2. A failure while a command runs (a file that is not
 * there, a device that refuses, a server that does not answer) is one line with the reasons of the exception and
 * its causes, exit 1; its stack trace only with {@code --verbose} or the environment variable
 * {@code QUIVER_STACKTRACE} set. Stateless.
 */
final class Failures {
    private Failures() {}

    /** Installs both handlers on {@code line}. */
    static void install(CommandLine line, String[] args) {
        line.setParameterExceptionHandler(Failures::usage);
        line.setExecutionExceptionHandler((failure, command, parseResult) -> runtime(failure, command, args));
    }

    private static int usage(ParameterException failure, String[] args) {
        CommandLine command = failure.getCommandLine();
        PrintWriter err = command.getErr();
        err.println(command.getColorScheme().errorText(failure.getMessage()));
        err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for the options.");
        err.flush();
        return 2;
    }

    private static int runtime(Exception failure, CommandLine command, String[] args) {
        PrintWriter err = command.getErr();
        if (Arrays.asList(args).contains("--verbose") || System.getenv("QUIVER_STACKTRACE") != null) {
            failure.printStackTrace(err);
        } else {
            err.println(command.getCommandSpec().qualifiedName() + ": " + reasons(failure)
                    + " (--verbose or QUIVER_STACKTRACE=1 for the stack trace)");
        }
        err.flush();
        return 1;
    }

    /** @return what one throwable says: file system failures name what went wrong with the file, not only its path */
    private static String reason(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage().strip();
        return switch (t) {
            case java.nio.file.NoSuchFileException _ -> "no such file: " + message;
            case java.nio.file.AccessDeniedException _ -> "access denied: " + message;
            case java.nio.file.FileAlreadyExistsException _ -> "already exists: " + message;
            case java.nio.file.NotDirectoryException _ -> "not a directory: " + message;
            case java.nio.file.DirectoryNotEmptyException _ -> "directory not empty: " + message;
            default -> message.isEmpty() ? t.getClass().getSimpleName() : message;
        };
    }

    /** @return the messages of a failure and its causes, without repeats, or its class names where it has none */
    static String reasons(Throwable failure) {
        Set<String> reasons = new LinkedHashSet<>();
        for (Throwable t = failure; t != null && reasons.size() < 4; t = t.getCause()) {
            String reason = reason(t);
            if (reasons.stream().noneMatch(known -> known.contains(reason))) {
                reasons.add(reason);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return String.join(": ", reasons).lines().findFirst().orElse("");
    }
}
