package dev.quiver.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A shared library compiled from C sources at test time.
 *
 * <p>Libraries are cached per process by their sources and flags, compiled into a directory under
 * {@code java.io.tmpdir}, and loaded into the global arena: they stay loaded until the JVM exits, so
 * function handles may be kept in static fields and called from any thread.
 *
 * {@snippet class=dev.quiver.testkit.snippets.TestkitSnippets region=library}
 */
public final class CLibrary {
    private static final ConcurrentHashMap<String, CLibrary> CACHE = new ConcurrentHashMap<>();

    private final Path path;
    private final SymbolLookup lookup;

    private CLibrary(Path path) {
        this.path = path;
        this.lookup = SymbolLookup.libraryLookup(path, Arena.global());
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
        sources.add(read(CLibrary.class, "arrow_c_abi.h"));
        for (String name : resources) {
            sources.add(read(anchor, name));
        }
        return sources;
    }

    private static Source read(Class<?> anchor, String name) {
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + name + " beside " + anchor.getName());
            }
            return new Source(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Compiles the given sources.
     *
     * @param sources C sources and headers
     * @param flags   extra compiler flags
     * @return the loaded library
     */
    public static CLibrary fromSources(List<Source> sources, List<String> flags) {
        String key = digest(sources, flags);
        return CACHE.computeIfAbsent(key, k -> new CLibrary(compile(k, sources, flags)));
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
        return compile(digest(sources, flags), sources, flags);
    }

    /** {@return the path of the loaded {@code .so}} */
    public Path path() {
        return path;
    }

    /**
     * {@return its address}
     * @param name a symbol the library exports
     * @throws IllegalArgumentException if the library has no such symbol
     */
    public MemorySegment symbol(String name) {
        return lookup.find(name).orElseThrow(() -> new IllegalArgumentException(path + " exports no " + name));
    }

    /**
     * {@return a downcall handle, callable from any thread}
     * @param name       a function the library exports
     * @param descriptor its C signature
     */
    public MethodHandle function(String name, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(symbol(name), descriptor);
    }

    /**
     * A C source or header.
     *
     * @param fileName its file name, for example {@code producer.c}
     * @param text     its content
     */
    public record Source(String fileName, String text) {}

    private static Path compile(String key, List<Source> sources, List<String> flags) {
        try {
            Path dir = Path.of(System.getProperty("java.io.tmpdir"), "quiver-c", key);
            Path library = dir.resolve("lib" + key.substring(0, 12) + ".so");
            if (Files.isRegularFile(library)) {
                return library;
            }
            Files.createDirectories(dir);
            List<String> command = new ArrayList<>(List.of(compiler(), "-shared", "-fPIC", "-O1", "-g",
                    "-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter", "-pthread"));
            command.addAll(flags);
            for (Source source : sources) {
                Path file = dir.resolve(source.fileName());
                Files.writeString(file, source.text());
                if (source.fileName().endsWith(".c")) {
                    command.add(file.toString());
                }
            }
            Path partial = dir.resolve(library.getFileName() + ".tmp" + ProcessHandle.current().pid());
            command.addAll(List.of("-o", partial.toString()));
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("C compilation failed: " + String.join(" ", command) + "\n" + output);
            }
            Files.move(partial, library, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return library;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compile C test sources (is a C compiler installed?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while compiling C", e);
        }
    }

    private static String compiler() {
        String cc = System.getenv("CC");
        return cc == null || cc.isBlank() ? "cc" : cc;
    }

    private static String digest(List<Source> sources, List<String> flags) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Source source : sources) {
                sha.update(source.fileName().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
                sha.update(source.text().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            sha.update(String.join("\u0000", flags).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
