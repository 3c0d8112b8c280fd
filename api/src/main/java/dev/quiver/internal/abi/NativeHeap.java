package dev.quiver.internal.abi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code calloc} and {@code free} from the C library, bound on first use: memory whose lifetime follows
 * the C Data Interface (freed by a release callback on any thread) rather than an arena's. Thread-safe.
 */
public final class NativeHeap {
    private NativeHeap() {}

    private static final class Handles {
        static final MethodHandle CALLOC = bind("calloc", FunctionDescriptor.of(ADDRESS, JAVA_LONG, JAVA_LONG));
        static final MethodHandle FREE = bind("free", FunctionDescriptor.ofVoid(ADDRESS));

        private static MethodHandle bind(String name, FunctionDescriptor descriptor) {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find(name)
                    .orElseThrow(() -> new UnsatisfiedLinkError("C library has no " + name)), descriptor);
        }
    }

    /**
     * @param bytes size
     * @return {@code bytes} of zeroed memory, aligned for any C type; free it with {@link #free}
     */
    public static MemorySegment calloc(long bytes) {
        MemorySegment memory;
        try {
            memory = (MemorySegment) Handles.CALLOC.invokeExact(1L, Math.max(bytes, 1));
        } catch (Throwable t) {
            throw new IllegalStateException("calloc failed", t);
        }
        if (memory.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("calloc of " + bytes + " bytes failed");
        }
        return memory.reinterpret(bytes);
    }

    /**
     * @param memory what {@link #calloc} returned; exactly once
     */
    public static void free(MemorySegment memory) {
        try {
            Handles.FREE.invokeExact(memory);
        } catch (Throwable t) {
            throw new IllegalStateException("free failed", t);
        }
    }
}
