package dev.quiver.cbuild;

import java.io.IOException;
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
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A shared library compiled from C sources with the system C compiler ({@code $CC}, else {@code cc}).
 *
 * <p>Libraries are cached per process by their sources and flags, compiled into a directory under
 * {@code java.io.tmpdir} named by a digest of both (so a later process finds them compiled), and loaded into
 * the global arena: they stay loaded until the JVM exits, so function handles may be kept in static fields.
 * Instances are immutable; every method may be called from any thread.
 */
public final class CompiledLibrary {
    private static final ConcurrentHashMap<String, CompiledLibrary> CACHE = new ConcurrentHashMap<>();

    private final Path path;
    private final SymbolLookup lookup;

    private CompiledLibrary(Path path) {
        this.path = path;
        this.lookup = SymbolLookup.libraryLookup(path, Arena.global());
    }

    /**
     * Compiles the given sources, once per process, and loads the library.
     *
     * @param sources C sources (those named {@code *.c} are compiled) and the headers they include
     * @param flags   extra compiler flags, for example {@code -O2} or {@code -I/usr/local/cuda/include}
     * @return the loaded library
     * @throws IllegalStateException with the compiler's output if compilation fails
     * @throws UncheckedIOException  if the compiler cannot be started or its files cannot be written
     */
    public static CompiledLibrary of(List<CSource> sources, List<String> flags) {
        String key = digest(sources, flags);
        return CACHE.computeIfAbsent(key, k -> new CompiledLibrary(compile(k, sources, flags)));
    }

    /**
     * Compiles the given sources into a shared library without loading it, for example to load it as a
     * stand-in vendor library through a library path.
     *
     * @param sources C sources and headers
     * @param flags   extra compiler flags
     * @return the path of the {@code .so}
     * @throws IllegalStateException with the compiler's output if compilation fails
     */
    public static Path compileOnly(List<CSource> sources, List<String> flags) {
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
     * @throws IllegalArgumentException if the library has no such symbol
     */
    public MethodHandle function(String name, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(symbol(name), descriptor);
    }

    private static Path compile(String key, List<CSource> sources, List<String> flags) {
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
            for (CSource source : sources) {
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
            Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return library;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compile C sources (is a C compiler installed?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while compiling C", e);
        }
    }

    private static String compiler() {
        String cc = System.getenv("CC");
        return cc == null || cc.isBlank() ? "cc" : cc;
    }

    private static String digest(List<CSource> sources, List<String> flags) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (CSource source : sources) {
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
