package dev.quiver;

import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The vendor library a device's backend loaded and calls (the OpenCL ICD loader, the Vulkan loader, the CUDA
 * driver), from {@link Device#vendorLibrary()}: a library with bindings of its own binds them to the same
 * library, not to another copy that might load another driver. The lookup stays valid for the life of the
 * process: backends keep their libraries loaded. Immutable.
 *
 * {@snippet class=dev.quiver.snippets.ApiSnippets region=vendorLibrary}
 *
 * @param name   the name the backend loaded it by, for example {@code libOpenCL.so.1}, or the path it was given
 * @param path   the file it was loaded from, where the platform says (Linux: {@code /proc/self/maps})
 * @param lookup its symbols
 */
public record VendorLibrary(String name, Optional<Path> path, SymbolLookup lookup) {
    /** Checks that no component is null. */
    public VendorLibrary {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(lookup, "lookup");
    }
}
