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

    static void free(MemorySegment pointer) {
        Bound.API.run(LibCFunction.free, h -> {
            h.invokeExact(pointer);
        });
    }
}
