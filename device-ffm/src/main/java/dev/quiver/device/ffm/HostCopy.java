package dev.quiver.device.ffm;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Objects;

/**
 * Bulk copies between host memory segments, the fastest way for their size: {@link MemorySegment#copy} below
 * {@value #MEMCPY_THRESHOLD} bytes, where the JDK's inlined copy beats a downcall, and the C library's
 * {@code memcpy} from there on between native segments that do not overlap (for large copies it streams past
 * the caches, which the JDK's copy does not). Heap-backed and overlapping copies always go through
 * {@link MemorySegment#copy}. {@code memcpy} is bound from the C library the JVM has loaded
 * ({@link HostCopyFunction}), found on first use or {@link #bind()} and bound on the first large copy, and kept for the life of the process.
 * Stateless; thread-safe.
 */
public final class HostCopy {
    /** From this many bytes on, copies between native segments call the C library's {@code memcpy}. */
    public static final long MEMCPY_THRESHOLD = 16 * 1024;

    private HostCopy() {}

    /** The C library's copy functions, found (addresses only: no stub is generated until a call). */
    private static final class Found {
        static final Downcalls TABLE = find();

        private static Downcalls find() {
            try {
                return VendorLibrary.cLibrary().bindAll(HostCopyFunction.class);
            } catch (VendorLibrary.NotFoundException e) {
                throw new UnsatisfiedLinkError(e.getMessage());
            }
        }
    }

    /** {@code memcpy}'s downcall handle, made on the first large copy. */
    private static final class Bound {
        static final MethodHandle MEMCPY = Found.TABLE.get(HostCopyFunction.memcpy.ordinal());
    }

    /**
     * Finds {@code memcpy} now, so that a probe reports a failure instead of the first large copy; its
     * downcall stub is generated on that copy, so a process that never makes one does not pay for it.
     *
     * @throws UnsatisfiedLinkError if the C library lacks it
     */
    public static void bind() {
        // loading the holder finds memcpy, or throws
        Objects.requireNonNull(Found.TABLE);
    }

    /**
     * Copies all of {@code from} to the start of {@code to}.
     *
     * @param from the bytes to copy
     * @param to   where they go, at least as large as {@code from}
     * @throws IndexOutOfBoundsException if {@code to} is smaller than {@code from}
     */
    public static void copy(MemorySegment from, MemorySegment to) {
        long bytes = from.byteSize();
        if (bytes >= MEMCPY_THRESHOLD && from.isNative() && to.isNative() && bytes <= to.byteSize() && !overlap(from, to)) {
            memcpy(to, from, bytes);
        } else {
            MemorySegment.copy(from, 0, to, 0, bytes);
        }
    }

    private static void memcpy(MemorySegment to, MemorySegment from, long bytes) {
        try {
            MemorySegment ignored = (MemorySegment) Bound.MEMCPY.invokeExact(to, from, bytes);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static boolean overlap(MemorySegment from, MemorySegment to) {
        return from.address() < to.address() + to.byteSize() && to.address() < from.address() + from.byteSize();
    }
}
