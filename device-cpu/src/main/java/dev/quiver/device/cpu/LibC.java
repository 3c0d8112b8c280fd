package dev.quiver.device.cpu;

import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.VendorLibrary;
import dev.quiver.spi.DeviceException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * {@code posix_memalign} and {@code free} from the C library, bound through the shared binding
 * layer from {@link LibCFunction} on first use, and kept for the life of the process. Stateless; thread-safe,
 * as the C library's functions are.
 */
final class LibC {
    /** {@code ENOMEM} on Linux and macOS: posix_memalign found no memory. */
    private static final int ENOMEM = 12;
    /** Linux's {@code MADV_HUGEPAGE}: back the range with transparent huge pages where the kernel allows. */
    private static final int MADV_HUGEPAGE = 14;

    private LibC() {}

    private static final class Bound {
        static final Bindings<LibCFunction> API = bind();

        private static Bindings<LibCFunction> bind() {
            try {
                return new Bindings<>(VendorLibrary.cLibrary().bindAll(LibCFunction.class), 0,
                        (calls, function, result) -> new DeviceException(function.name() + " failed (error " + result + ")"));
            } catch (VendorLibrary.NotFoundException e) {
                throw new UnsatisfiedLinkError(e.getMessage());
            }
        }
    }

    /**
     * Binds the functions now, so that a probe reports a failure instead of the first allocation.
     *
     * @throws UnsatisfiedLinkError if the C library lacks one of them
     */
    static void check() {
        Objects.requireNonNull(Bound.API);
    }

    static MemorySegment alignedAlloc(long alignment, long size) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int rc = Bound.API.result(LibCFunction.posix_memalign, h -> (int) h.invokeExact(out, alignment, size));
            if (rc != 0) {
                throw new DeviceException("posix_memalign failed (error " + rc + "): cannot allocate " + size
                        + " bytes of host memory aligned to " + alignment,
                        rc == ENOMEM ? DeviceException.Kind.OUT_OF_MEMORY : DeviceException.Kind.FAILURE);
            }
            return out.get(ADDRESS, 0);
        }
    }

    /**
     * Asks Linux to back a range with transparent huge pages ({@code madvise(MADV_HUGEPAGE)}), which the kernel
     * does when its setting is {@code madvise} or {@code always} and it finds the pages; a first touch then
     * faults once per 2 MiB instead of once per 4 KiB.
     *
     * @param pointer the range's start, aligned to a page
     * @param size    its length
     * @return whether the kernel took the advice (false where transparent huge pages are off)
     */
    static boolean adviseHugePages(MemorySegment pointer, long size) {
        return Bound.API.result(LibCFunction.madvise, h -> (int) h.invokeExact(pointer, size, MADV_HUGEPAGE)) == 0;
    }

    static void free(MemorySegment pointer) {
        Bound.API.run(LibCFunction.free, h -> {
            h.invokeExact(pointer);
        });
    }
}
