package dev.quiver.cli;

import dev.quiver.Devices;
import dev.quiver.check.Conformance;
import dev.quiver.check.ConformanceReport;
import dev.quiver.check.ProducerSignature;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code quiver check <library.so> <function> [--schema] [--stream] [--json]}: loads a shared library,
 * calls one of its producer functions, and checks what it produced against the Arrow C Device Data
 * Interface, reporting every violation. Exit code 0 when the producer conforms, 1 on any violation,
 * 2 on a usage error (bad options, no such library or function).
 *
 * <p>The library is loaded into a child JVM that runs this command again with {@code --in-process}
 * ({@link IsolatedCheck}): a producer that crashes, exits or hangs is a verdict ({@code producer.crash},
 * {@code producer.timeout}, exit code 1), never a crash of the checker. With {@code --in-process} the
 * library is loaded into this process, which is faster, and unloaded when the command ends.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Call a producer function of a shared library and check what it produces against the Arrow C "
                + "Device Data Interface, listing every violation with its rule id, field path and message.",
            "The producer runs in a process of its own: a crash or a hang is a violation, not a crash of the checker.",
            "Exit code 0: conforming; 1: violations; 2: usage error."})
final class CheckCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<library.so>", description = "the shared library that exports the producer")
    Path library;

    @Parameters(index = "1", paramLabel = "<function>", description = "the producer function; without --schema or --stream: int f(struct ArrowDeviceArray* out)")
    String function;

    @Option(names = "--schema", description = "the producer is int f(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema)")
    boolean schema;

    @Option(names = "--stream", description = "the producer is int f(struct ArrowDeviceArrayStream* out)")
    boolean stream;

    @Option(names = "--json", description = "print the report as JSON")
    boolean json;

    @Option(names = "--max-arrays", paramLabel = "<n>", defaultValue = "1000",
            description = "pull at most this many arrays from a stream (default: ${DEFAULT-VALUE})")
    int maxArrays;

    @Option(names = "--timeout", paramLabel = "<seconds>", defaultValue = "120",
            description = "stop a producer that has not finished after this many seconds (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = "--in-process", description = "run the producer in this process: faster, but a crash of the "
            + "producer ends the checker too")
    boolean inProcess;

    @Option(names = {"-v", "--verbose"}, description = "after a crash, show all the producer's process printed and "
            + "keep the JVM's crash log")
    boolean verbose;

    @Option(names = "--report-file", hidden = true, description = "where --in-process writes the report")
    Path reportFile;

    @Override
    public Integer call() {
        if (schema && stream) {
            throw new ParameterException(spec.commandLine(), "--schema and --stream exclude each other: a stream hands out its schema itself");
        }
        if (maxArrays < 1) {
            throw new ParameterException(spec.commandLine(), "--max-arrays must be at least 1, not " + maxArrays);
        }
        if (!Files.isRegularFile(library)) {
            throw new ParameterException(spec.commandLine(), "no such library: " + library);
        }
        if (timeoutSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--timeout must be at least 1 second, not " + timeoutSeconds);
        }
        ProducerSignature signature = stream ? ProducerSignature.DEVICE_ARRAY_STREAM
                : schema ? ProducerSignature.DEVICE_ARRAY_WITH_SCHEMA : ProducerSignature.DEVICE_ARRAY;
        if (!inProcess) {
            return new IsolatedCheck(Duration.ofSeconds(timeoutSeconds), verbose, System.out, System.err)
                    .run(childArguments(), report -> render(signature, report));
        }
        try (Arena arena = Arena.ofShared()) {
            MemorySegment producer = lookup(arena).find(function).orElseThrow(() ->
                    new ParameterException(spec.commandLine(), library + " exports no symbol " + function));
            ConformanceReport report = Conformance.checkProducer(producer, signature, Devices.system(), maxArrays);
            write(render(signature, report));
            return report.conforming() ? 0 : 1;
        }
    }

    private String render(ProducerSignature signature, ConformanceReport report) {
        CheckReport printed = new CheckReport(library.toString(), function, signature, report);
        return json ? printed.json() : printed.text();
    }

    /** Prints the report, or writes it whole to the report file (a file that exists is complete). */
    private void write(String report) {
        if (reportFile == null) {
            System.out.print(report);
            System.out.flush();
            return;
        }
        try {
            Path partial = reportFile.resolveSibling(reportFile.getFileName() + ".partial");
            Files.writeString(partial, report);
            Files.move(partial, reportFile, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + reportFile, e);
        }
    }

    private List<String> childArguments() {
        List<String> arguments = new ArrayList<>(List.of("check", library.toString(), function,
                "--max-arrays=" + maxArrays));
        if (schema) {
            arguments.add("--schema");
        }
        if (stream) {
            arguments.add("--stream");
        }
        if (json) {
            arguments.add("--json");
        }
        return arguments;
    }

    private SymbolLookup lookup(Arena arena) {
        try {
            return SymbolLookup.libraryLookup(library.toAbsolutePath(), arena);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "cannot load " + library + ": " + e.getMessage());
        }
    }
}
