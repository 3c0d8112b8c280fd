package dev.quiver.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test double of a vendor library: C sources that fake a vendor API on host memory, compiled at test
 * time into a shared library that carries the vendor library's soname and file name (for example
 * {@code libcuda.so.1}), so that a backend loads it through its library-path override exactly as it loads
 * the real one. A test double proves that a backend's own code paths work against the API as the headers
 * declare it; it never backs a claim about hardware.
 *
 * <p>The sources are compiled together with the shared device model, {@code test_double_device.c} (host
 * memory behind tagged device pointers and its inter-process handles) and {@code test_double_queues.c} (deferred
 * in-order queues, events and theirs; see
 * {@code test_double_device.h}). Built libraries are cached per process and stay loaded until the JVM
 * exits; instances are immutable and thread-safe.
 */
public final class TestDoubleLibrary {
    private static final ConcurrentHashMap<Path, TestDoubleLibrary> BUILT = new ConcurrentHashMap<>();

    private final Path path;
    private final SymbolLookup lookup;

    private TestDoubleLibrary(Path path) {
        this.path = path;
        this.lookup = SymbolLookup.libraryLookup(path, Arena.global());
    }

    /**
     * Compiles a test double.
     *
     * @param anchor    a class whose package holds the C sources as resources
     * @param resources the test double's C sources and headers
     * @param soname    the vendor library's soname, which also becomes the file name
     * @param flags     extra compiler flags, for example the vendor header directory
     * @return the built library, loaded
     */
    public static TestDoubleLibrary build(Class<?> anchor, List<String> resources, String soname, List<String> flags) {
        List<CLibrary.Source> sources = new ArrayList<>(CLibrary.readResources(TestDoubleLibrary.class,
                List.of("test_double_device.h", "test_double_shared.h", "test_double_device.c", "test_double_queues.c")));
        sources.addAll(CLibrary.readResources(anchor, resources));
        List<String> allFlags = new ArrayList<>(flags);
        allFlags.add("-Wl,-soname," + soname);
        Path compiled = CLibrary.compileOnly(sources, allFlags);
        Path named = compiled.resolveSibling("test-double").resolve(soname);
        return BUILT.computeIfAbsent(named, target -> {
            try {
                Files.createDirectories(target.getParent());
                if (!Files.exists(target)) {
                    Path partial = target.resolveSibling(soname + ".tmp" + ProcessHandle.current().pid());
                    Files.copy(compiled, partial, StandardCopyOption.REPLACE_EXISTING);
                    Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
                return new TestDoubleLibrary(target);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** {@return the library file, named by its soname: what a backend's library-path override takes} */
    public Path path() {
        return path;
    }

    /**
     * A control function of the test double (for example a live-allocation counter), never a vendor entry
     * point.
     *
     * @param name       the exported function
     * @param descriptor its C signature
     * @return a downcall handle, callable from any thread
     */
    public MethodHandle function(String name, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(lookup.find(name)
                .orElseThrow(() -> new IllegalArgumentException(path + " exports no " + name)), descriptor);
    }

    /**
     * The resources the test double still holds, by kind: its control functions
     * {@code test_double_live_allocations}, {@code test_double_live_streams} and
     * {@code test_double_live_events}. After a test released everything, every count is 0.
     *
     * @return allocations, streams and events still live, in that order
     */
    public Map<String, Long> liveResources() {
        Map<String, Long> live = new LinkedHashMap<>();
        for (String kind : List.of("allocations", "streams", "events")) {
            live.put(kind, counter("test_double_live_" + kind));
        }
        return live;
    }

    /**
     * Calls a control function that takes nothing and returns a C {@code long}.
     *
     * @param name the exported function
     * @return its result
     */
    public long counter(String name) {
        try {
            return (long) function(name, FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_LONG)).invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
