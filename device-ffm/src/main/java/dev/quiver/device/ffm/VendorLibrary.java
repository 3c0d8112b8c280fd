package dev.quiver.device.ffm;

import dev.quiver.spi.DriverStartLock;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A vendor library (a driver or runtime) loaded into the global arena, or the C library the JVM already
 * loaded ({@link #cLibrary()}): either stays loaded for the life of the process, so lookups and downcall
 * handles made from it may be kept anywhere and used from any thread.
 *
 * @param library the name or path it was loaded by
 * @param lookup  its symbols
 */
public record VendorLibrary(String library, SymbolLookup lookup) {

    /** A library or a symbol was not found; the message says which. */
    public static final class NotFoundException extends Exception {
        private static final long serialVersionUID = 1L;

        NotFoundException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * @param name a symbol the library must export
     * @return its address
     * @throws NotFoundException saying the library lacks it
     */
    public MemorySegment symbol(String name) throws NotFoundException {
        return lookup.find(name).orElseThrow(() -> new NotFoundException(library + " has no " + name));
    }

    /**
     * Finds every entry point of a table by its symbol now, and makes each downcall handle on the entry
     * point's first call.
     *
     * @param table the backend's table
     * @param <F>   the table type
     * @return one downcall per constant, by ordinal
     * @throws NotFoundException naming the first symbol the library lacks
     */
    public <F extends Enum<F> & CFunction.Table> Downcalls bindAll(Class<F> table) throws NotFoundException {
        return Downcalls.find(table, this::symbol);
    }

    /**
     * Binds every entry point of a table as {@link #bindAll(Class)} does, or says why the backend cannot be used.
     *
     * @param what  the library as a probe reason names it, for example {@code "ROCm HIP runtime"}
     * @param table the backend's table
     * @param <F>   the table type
     * @return one downcall per constant, by ordinal
     * @throws BackendUnavailableException {@code "<what> incomplete: <library> has no <symbol>"}
     */
    public <F extends Enum<F> & CFunction.Table> Downcalls bindAll(String what, Class<F> table) throws BackendUnavailableException {
        try {
            return bindAll(table);
        } catch (NotFoundException e) {
            throw new BackendUnavailableException(what + " incomplete: " + e.getMessage());
        }
    }

    /**
     * This library as backends report it ({@link dev.quiver.spi.BackendDevice#vendorLibrary()}): its name, the
     * file it was loaded from, and its symbols.
     *
     * @param knownSymbol a symbol it exports, whose address locates the file in this process's memory map
     * @return the library; its path is empty where the memory map does not say (not Linux) or the symbol is absent
     */
    public dev.quiver.spi.LoadedLibrary loaded(String knownSymbol) {
        java.util.Optional<Path> file = library.contains("/") ? java.util.Optional.of(Path.of(library))
                : lookup.find(knownSymbol).flatMap(symbol -> LibraryFiles.holding(symbol.address()));
        return new dev.quiver.spi.LoadedLibrary(library, file, lookup);
    }

    /**
     * The C library ({@code libc} and what the platform's default lookup reaches with it), which needs no
     * loading: the JVM has it already.
     *
     * @return the C library, named {@code "the C library"} in messages
     */
    public static VendorLibrary cLibrary() {
        return new VendorLibrary("the C library", Linker.nativeLinker().defaultLookup());
    }

    /**
     * Loads the first candidate that loads, as {@link #loadFirst} does, or says why the backend cannot be used.
     *
     * @param what       the library as a probe reason names it, for example {@code "CUDA driver"}
     * @param candidates names or paths, in order of preference
     * @return the library loaded
     * @throws BackendUnavailableException {@code "<what> not installed (<candidates> not found)"}
     */
    public static VendorLibrary loadFirst(String what, List<String> candidates) throws BackendUnavailableException {
        try {
            return loadFirst(candidates);
        } catch (NotFoundException e) {
            throw new BackendUnavailableException(what + " not installed (" + e.getMessage() + ")");
        }
    }

    /**
     * Loads the first candidate that loads. A candidate with a {@code /} is a file path; any other is a name
     * for the dynamic linker's search (for example a soname such as {@code libcuda.so.1}).
     *
     * @param candidates names or paths, in order of preference
     * @return the library loaded
     * @throws NotFoundException whose message says, for example, {@code "libcuda.so.1 not found"}
     */
    public static VendorLibrary loadFirst(List<String> candidates) throws NotFoundException {
        List<String> notFound = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String candidate : candidates) {
            boolean isPath = candidate.contains("/");
            if (isPath && !Files.exists(Path.of(candidate))) {
                notFound.add(candidate);
                continue;
            }
            try {
                SymbolLookup lookup = DriverStartLock.loading(() -> isPath ? SymbolLookup.libraryLookup(Path.of(candidate), Arena.global())
                        : SymbolLookup.libraryLookup(candidate, Arena.global()));
                return new VendorLibrary(candidate, lookup);
            } catch (IllegalArgumentException e) {
                if (isPath) {
                    failed.add(candidate + " cannot be loaded: " + e.getMessage());
                } else {
                    notFound.add(candidate);
                }
            }
        }
        List<String> why = new ArrayList<>(failed);
        if (!notFound.isEmpty()) {
            why.add(String.join(", ", notFound) + " not found");
        }
        throw new NotFoundException(String.join("; ", why));
    }
}
