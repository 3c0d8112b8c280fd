package dev.quiver.device.cpu;

import dev.quiver.spi.DeviceException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** {@code posix_memalign}, {@code free} and {@code memcpy} from the C library, bound on first use. */
final class LibC {
    private LibC() {}

    private static final class Handles {
        static final MethodHandle POSIX_MEMALIGN = bind("posix_memalign", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
        static final MethodHandle FREE = bind("free", FunctionDescriptor.ofVoid(ADDRESS));
        static final MethodHandle MEMCPY = bind("memcpy", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));

        private static MethodHandle bind(String name, FunctionDescriptor descriptor, Linker.Option... options) {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find(name)
                    .orElseThrow(() -> new UnsatisfiedLinkError("C library has no " + name)), descriptor, options);
        }
    }

    /** Binds the functions now, so that a probe reports a failure instead of the first allocation. */
    static void check() {
        MethodHandle[] bound = {Handles.POSIX_MEMALIGN, Handles.FREE, Handles.MEMCPY};
        assert bound.length == 3;
    }

    static MemorySegment alignedAlloc(long alignment, long size) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int rc = (int) Handles.POSIX_MEMALIGN.invokeExact(out, alignment, size);
            if (rc != 0) {
                throw new DeviceException("posix_memalign failed (error " + rc + "): cannot allocate " + size
                        + " bytes of host memory aligned to " + alignment);
            }
            return out.get(ADDRESS, 0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Copies with the C library's {@code memcpy}: faster than a JDK copy for large native buffers. */
    static void memcpy(MemorySegment destination, MemorySegment source, long bytes) {
        try {
            MemorySegment ignored = (MemorySegment) Handles.MEMCPY.invokeExact(destination, source, bytes);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static void free(MemorySegment pointer) {
        try {
            Handles.FREE.invokeExact(pointer);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
