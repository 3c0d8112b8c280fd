package dev.quiver.spi;

import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The vendor library a backend loaded (the OpenCL ICD loader, the Vulkan loader, the CUDA driver, ...), so
 * that code with bindings of its own calls into the same library instead of loading another copy, possibly
 * another driver. The lookup stays valid for the life of the process: backends keep their libraries loaded.
 *
 * @param name   the name it was loaded by, for example {@code libOpenCL.so.1}, or the path given to the backend
 * @param path   where it was loaded from, when the backend knows the file
 * @param lookup its symbols
 */
public record LoadedLibrary(String name, Optional<Path> path, SymbolLookup lookup) {
    /** Checks that no component is null. */
    public LoadedLibrary {
        java.util.Objects.requireNonNull(name, "name");
        java.util.Objects.requireNonNull(path, "path");
        java.util.Objects.requireNonNull(lookup, "lookup");
    }
}
