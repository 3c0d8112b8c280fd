package dev.quiver.testkit;

import dev.quiver.cbuild.CSource;
import dev.quiver.cbuild.CompiledLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A shared library compiled from C sources at test time.
 *
 * <p>Libraries are compiled by {@code dev.quiver.cbuild}'s {@link CompiledLibrary}: cached per process by
 * their sources and flags, compiled into a directory under {@code java.io.tmpdir}, and loaded into the global
 * arena. They stay loaded until the JVM exits, so function handles may be kept in static fields and called
 * from any thread. Instances are immutable and thread-safe.
 *
 * {@snippet class=dev.quiver.testkit.snippets.TestkitSnippets region=library}
 */
public final class CLibrary {
    private final CompiledLibrary library;

    private CLibrary(CompiledLibrary library) {
        this.library = library;
    }

    /**
     * Compiles C sources that sit as resources beside {@code anchor} (same package).
     *
     * @param anchor    a class whose package holds the resources
     * @param resources file names of the {@code .c} sources (and headers they include)
     * @return the loaded library
     */
    public static CLibrary fromResources(Class<?> anchor, String... resources) {
        return fromResources(anchor, List.of(resources), List.of());
    }

    /**
     * Compiles C sources that sit as resources beside {@code anchor}, with extra compiler flags.
     *
     * @param anchor    a class whose package holds the resources
     * @param resources file names of the sources; those ending in {@code .c} are compiled, the rest copied
     *                  beside them so that {@code #include "x.h"} finds them
     * @param flags     extra compiler flags, for example {@code -I/usr/local/cuda/include}
     * @return the loaded library
     */
    public static CLibrary fromResources(Class<?> anchor, List<String> resources, List<String> flags) {
        return fromSources(readResources(anchor, resources), flags);
    }

    /**
     * Reads C sources that sit as resources beside {@code anchor}, plus the bundled
     * {@code arrow_c_abi.h} (the Arrow C Data and C Device Data structs, written from the specification).
     *
     * @param anchor    a class whose package holds the resources
     * @param resources file names
     * @return the sources, the header first
     */
    public static List<Source> readResources(Class<?> anchor, List<String> resources) {
        List<Source> sources = new ArrayList<>();
        sources.add(Source.of(CSource.arrowCAbi()));
        for (String name : resources) {
            sources.add(Source.of(CSource.resource(anchor, name)));
        }
        return sources;
    }

    /**
     * Compiles the given sources.
     *
     * @param sources C sources and headers
     * @param flags   extra compiler flags
     * @return the loaded library
     */
    public static CLibrary fromSources(List<Source> sources, List<String> flags) {
        return new CLibrary(CompiledLibrary.of(Source.toC(sources), flags));
    }

    /**
     * Compiles the given sources into a shared library without loading it, for example to load it
     * as a stand-in vendor library through a library path.
     *
     * @param sources C sources and headers
     * @param flags   extra compiler flags
     * @return the path of the {@code .so}
     */
    public static Path compileOnly(List<Source> sources, List<String> flags) {
        return CompiledLibrary.compileOnly(Source.toC(sources), flags);
    }

    /** {@return the path of the loaded {@code .so}} */
    public Path path() {
        return library.path();
    }

    /**
     * {@return its address}
     * @param name a symbol the library exports
     * @throws IllegalArgumentException if the library has no such symbol
     */
    public MemorySegment symbol(String name) {
        return library.symbol(name);
    }

    /**
     * {@return a downcall handle, callable from any thread}
     * @param name       a function the library exports
     * @param descriptor its C signature
     */
    public MethodHandle function(String name, FunctionDescriptor descriptor) {
        return library.function(name, descriptor);
    }

    /**
     * A C source or header.
     *
     * @param fileName its file name, for example {@code producer.c}
     * @param text     its content
     */
    public record Source(String fileName, String text) {
        private static Source of(CSource source) {
            return new Source(source.fileName(), source.text());
        }

        private static List<CSource> toC(List<Source> sources) {
            return sources.stream().map(s -> new CSource(s.fileName(), s.text())).toList();
        }
    }
}
