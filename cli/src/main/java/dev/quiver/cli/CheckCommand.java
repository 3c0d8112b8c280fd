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

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code quiver check <library.so> <function> [--schema] [--stream] [--json]}: loads a shared library,
 * calls one of its producer functions, and checks what it produced against the Arrow C Device Data
 * Interface, reporting every violation. Exit code 0 when the producer conforms, 1 on any violation,
 * 2 on a usage error (bad options, no such library or function).
 *
 * <p>The library is loaded into this process and its code runs here: check only libraries you trust to
 * run. It is unloaded when the command ends.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Call a producer function of a shared library and check what it produces against the Arrow C "
                + "Device Data Interface, listing every violation with its rule id, field path and message.",
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
        ProducerSignature signature = stream ? ProducerSignature.DEVICE_ARRAY_STREAM
                : schema ? ProducerSignature.DEVICE_ARRAY_WITH_SCHEMA : ProducerSignature.DEVICE_ARRAY;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment producer = lookup(arena).find(function).orElseThrow(() ->
                    new ParameterException(spec.commandLine(), library + " exports no symbol " + function));
            ConformanceReport report = Conformance.checkProducer(producer, signature, Devices.system(), maxArrays);
            CheckReport printed = new CheckReport(library.toString(), function, signature, report);
            System.out.print(json ? printed.json() : printed.text());
            System.out.flush();
            return report.conforming() ? 0 : 1;
        }
    }

    private SymbolLookup lookup(Arena arena) {
        try {
            return SymbolLookup.libraryLookup(library.toAbsolutePath(), arena);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "cannot load " + library + ": " + e.getMessage());
        }
    }
}
