package dev.quiver.cli;

import dev.quiver.check.ConformanceReport;
import dev.quiver.check.Rule;
import dev.quiver.check.Violation;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Runs {@code quiver check --in-process} in a child JVM, so that a producer that crashes, ends the process
 * or hangs becomes a verdict ({@link Rule#PRODUCER_CRASH}, {@link Rule#PRODUCER_TIMEOUT}, exit code 1)
 * instead of taking the checker with it. The child writes its report to a file; what it prints is passed
 * on. The child's files live in a temporary directory that is deleted afterwards, except a crash log kept
 * with {@code --verbose}. Confined to the calling thread.
 */
final class IsolatedCheck {
    private static final Map<Integer, String> SIGNALS = Map.of(4, "SIGILL", 6, "SIGABRT", 7, "SIGBUS", 8, "SIGFPE",
            9, "SIGKILL", 11, "SIGSEGV", 13, "SIGPIPE", 15, "SIGTERM");

    private final Duration timeout;
    private final boolean verbose;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param timeout how long the child may run
     * @param verbose keep the crash log and pass on all the child printed, even after a crash
     * @param out     where the report goes
     * @param err     where the child's standard error goes
     */
    IsolatedCheck(Duration timeout, boolean verbose, PrintStream out, PrintStream err) {
        this.timeout = timeout;
        this.verbose = verbose;
        this.out = out;
        this.err = err;
    }

    /**
     * @param arguments the {@code check} arguments for the child, without {@code --in-process}
     * @param render    renders a report the child could not write (a crash, a timeout)
     * @return the exit code: the child's 0, 1 or 2, or 1 when it crashed, ended otherwise or ran out of time
     */
    int run(List<String> arguments, Function<ConformanceReport, String> render) {
        Path directory = null;
        try {
            directory = Files.createTempDirectory("quiver-check-");
            Path report = directory.resolve("report");
            List<String> childArguments = new ArrayList<>(arguments);
            childArguments.add("--in-process");
            childArguments.add("--report-file=" + report);
            List<String> command = ChildJvm.command(List.of("-XX:ErrorFile=" + directory.resolve("hs_err_pid%p.log"),
                    "-XX:-CreateCoredumpOnCrash"), childArguments);
            Path stdout = directory.resolve("stdout");
            Path stderr = directory.resolve("stderr");
            Process child = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            boolean finished = child.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                child.descendants().forEach(ProcessHandle::destroyForcibly);
                child.destroyForcibly();
                child.waitFor();
            }
            int code = child.exitValue();
            boolean reported = finished && (code == 0 || code == 1) && Files.exists(report);
            if (finished && (reported || code == 2)) {
                out.write(Files.readAllBytes(stdout));
                err.write(Files.readAllBytes(stderr));
                if (reported) {
                    out.write(Files.readAllBytes(report));
                }
                out.flush();
                return code;
            }
            Optional<CrashLog> crash = CrashLog.find(directory);
            List<String> notes = new ArrayList<>();
            crash.ifPresent(log -> notes.add("the JVM's crash log: " + log.signal()
                    + (log.frame().isEmpty() ? "" : "; problematic frame: " + log.frame())));
            if (verbose) {
                out.write(Files.readAllBytes(stdout));
                Path kept = directory.toAbsolutePath();
                crash.ifPresent(log -> notes.add("crash log kept in " + kept));
            }
            err.write(Files.readAllBytes(stderr));
            Violation violation = finished ? crashed(code, crash) : new Violation(Rule.PRODUCER_TIMEOUT, "producer",
                    "did not finish within " + timeout.toSeconds() + " s: the checking process was stopped");
            out.print(render.apply(ConformanceReport.of(violation, notes)));
            out.flush();
            if (verbose && crash.isPresent()) {
                directory = null;
            }
            return 1;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run the producer in a process of its own: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the producer ran", e);
        } finally {
            delete(directory);
        }
    }

    private static Violation crashed(int code, Optional<CrashLog> crash) {
        String how;
        if (crash.isPresent()) {
            how = "crashed the process it ran in with " + crash.get().signalName();
        } else if (code > 128 && code < 128 + 65) {
            int signal = code - 128;
            how = "ended the process it ran in with signal " + signal
                    + Optional.ofNullable(SIGNALS.get(signal)).map(name -> " (" + name + ")").orElse("");
        } else {
            how = "ended the process it ran in with exit status " + code + ", before the check finished";
        }
        return new Violation(Rule.PRODUCER_CRASH, "producer", how);
    }

    private static void delete(Path directory) {
        if (directory == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // a temporary directory left behind is not worth failing the command
        }
    }
}
