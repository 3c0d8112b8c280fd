package dev.quiver.structure;

import dev.quiver.DeviceArray;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rules for the main sources of every module, read from the working tree ({@link MainSources}): no reflection by
 * name beyond a short allow-list, each entry with its reason ({@link SourceReflection}), and no file over
 * {@value #MAX_LINES} lines beyond a list of today's, each with the length it may not pass. Both lists may only
 * shrink: an entry that no longer applies fails the test until it is taken off. {@link StructureChecksTest} shows
 * that the scans find what they look for.
 */
class ModuleSourcesTest {
    /** The most lines a main source file has. */
    static final int MAX_LINES = 500;

    /**
     * The reflection that stays, by file: the calls it makes, and why. Everything else reaches what it needs
     * through a type it compiles against, a service, or a method handle of its own class.
     */
    private static final Map<String, Allowed> REFLECTION = Map.of(
            "flight/src/main/java/dev/quiver/flight/wire/GrpcBufferChain.java", new Allowed(
                    Set.of("Class.forName", "getDeclaredField", "getDeclaredConstructor", "setAccessible"),
                    "gRPC-java's zero-copy send path (MessageFramer$BufferChainOutputStream.bufferList, NettyWritableBuffer) "
                            + "has no public API; opened as Arrow Java's Flight opens it, with a copying fallback"),
            "benchmarks/src/main/java/dev/quiver/benchmarks/handoff/ValidationMessages.java", new Allowed(
                    Set.of("Class.forName", "getMethod"),
                    "reads the Vulkan backend's validation log where the benchmarks do not compile against device-vulkan"),
            "testkit/src/main/java/dev/quiver/testkit/PeerProcess.java", new Allowed(
                    Set.of("Class.forName", "getConstructor"),
                    "the child JVM of an IPC peer makes the provider class its parent names, which need not be a service"));

    /** Main source files over {@value #MAX_LINES} lines today, with the length each may not pass. */
    private static final Map<String, Integer> LONG_FILES = Map.of(
            "api/src/main/java/dev/quiver/host/ArrayReader.java", 796);

    /** @param calls the reflective calls the file makes; @param reason why they must stay */
    private record Allowed(Set<String> calls, String reason) {}

    private static Path root() throws URISyntaxException {
        return MainSources.repositoryRoot(Path.of(DeviceArray.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    }

    @Test
    void noMainCodeReflectsBeyondTheAllowList() throws URISyntaxException {
        Path root = root();
        Map<String, Set<String>> found = new TreeMap<>();
        List<String> lines = new ArrayList<>();
        for (String file : MainSources.files(root, Set.of(".java"))) {
            for (String line : SourceReflection.in(file, MainSources.read(root, file))) {
                found.computeIfAbsent(file, k -> new TreeSet<>()).add(SourceReflection.call(line));
                lines.add(line);
            }
        }
        List<String> problems = new ArrayList<>();
        for (String line : lines) {
            String file = line.substring(0, line.indexOf(':'));
            Allowed allowed = REFLECTION.get(file);
            if (allowed == null || !allowed.calls().contains(SourceReflection.call(line))) {
                problems.add(line + ": reflection by name; reach it through a type, a service or a method handle of one's own");
            }
        }
        REFLECTION.forEach((file, allowed) -> {
            for (String call : allowed.calls()) {
                if (!found.getOrDefault(file, Set.of()).contains(call)) {
                    problems.add(file + " no longer calls " + call + ": take it off ModuleSourcesTest.REFLECTION");
                }
            }
        });
        assertEquals(List.of(), problems.stream().sorted().toList());
    }

    @Test
    void noMainFileIsLongerThanTheLimitBeyondTheAllowList() throws URISyntaxException {
        Path root = root();
        List<String> problems = new ArrayList<>();
        Set<String> files = new TreeSet<>(MainSources.files(root, Set.of(".java", ".c", ".h")));
        for (String file : files) {
            long lines = MainSources.read(root, file).lines().count();
            Integer ceiling = LONG_FILES.get(file);
            if (ceiling == null && lines > MAX_LINES) {
                problems.add(file + " has " + lines + " lines, over " + MAX_LINES + ": split it by what its parts do");
            } else if (ceiling != null && lines > ceiling) {
                problems.add(file + " has " + lines + " lines, more than the " + ceiling + " it had: it may only shrink");
            } else if (ceiling != null && lines <= MAX_LINES) {
                problems.add(file + " has " + lines + " lines, within " + MAX_LINES + ": take it off ModuleSourcesTest.LONG_FILES");
            }
        }
        LONG_FILES.keySet().stream().filter(file -> !files.contains(file))
                .forEach(file -> problems.add(file + " is gone: take it off ModuleSourcesTest.LONG_FILES"));
        assertEquals(List.of(), problems.stream().sorted().toList());
    }

    @Test
    void theScanReadsEveryModule() throws URISyntaxException {
        Set<String> modules = new TreeSet<>();
        for (String file : MainSources.files(root(), Set.of(".java"))) {
            modules.add(file.substring(0, file.indexOf("/src/main/")));
        }
        assertTrue(modules.containsAll(Set.of("spi", "api", "cli", "flight", "share", "arrow-java", "testkit", "tck",
                "check", "baselines", "cbuild", "benchmarks", "device-cpu", "device-cuda", "device-ffm", "device-metal",
                "device-oneapi", "device-opencl", "device-rocm", "device-vulkan", "examples/vendor-plugin",
                "examples/column-kernels")), modules.toString());
    }
}
