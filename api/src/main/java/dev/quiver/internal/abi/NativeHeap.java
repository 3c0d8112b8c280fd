package dev.quiver.internal.abi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code malloc} and {@code free} from the C library, bound on first use: memory whose lifetime follows the
 * C Data Interface (freed by a release callback on any thread) rather than an arena's. Zeroed memory is
 * {@code malloc}'s, cleared from Java, so that start-up generates no third stub for {@code calloc}. Both are
 * linked as critical functions ({@link Linker.Option#critical}): they return quickly and never
 * call back into Java, so the call skips the thread-state transition that an ordinary downcall pays, which
 * is most of the cost of a small allocation. Thread-safe.
 */
public final class NativeHeap {
    private NativeHeap() {}

    private static final class Handles {
        // malloc and free take and give pointers as 64-bit integers (the same registers on every 64-bit
        // calling convention the linker supports), so that no segment is made per call
        static final MethodHandle MALLOC = bind("malloc", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
        static final MethodHandle FREE = bind("free", FunctionDescriptor.ofVoid(JAVA_LONG));

        private static MethodHandle bind(String name, FunctionDescriptor descriptor) {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find(name)
                    .orElseThrow(() -> new UnsatisfiedLinkError("C library has no " + name)), descriptor,
                    Linker.Option.critical(false));
        }
    }

    /**
     * @param bytes size
     * @return {@code bytes} of zeroed memory, aligned for any C type; free it with {@link #free}
     */
    public static MemorySegment calloc(long bytes) {
        long size = Math.max(bytes, 1);
        long address = malloc(size);
        RawMemory.zero(address, size);
        return Pointers.bytes(MemorySegment.ofAddress(address), bytes);
    }


    /**
     * @param bytes size
     * @return the address of {@code bytes} of uninitialised memory, aligned for any C type; free it with
     *         {@link #free(long)}
     */
    public static long malloc(long bytes) {
        long memory;
        try {
            memory = (long) Handles.MALLOC.invokeExact(Math.max(bytes, 1));
        } catch (Throwable t) {
            throw new IllegalStateException("malloc failed", t);
        }
        if (memory == 0) {
            throw new OutOfMemoryError("malloc of " + bytes + " bytes failed");
        }
        return memory;
    }

    /**
     * @param memory what {@link #calloc} returned; exactly once
     */
    public static void free(MemorySegment memory) {
        free(memory.address());
    }

    /**
     * @param address what {@link #malloc} returned, or the address of what {@link #calloc} returned; exactly once
     */
    public static void free(long address) {
        try {
            Handles.FREE.invokeExact(address);
        } catch (Throwable t) {
            throw new IllegalStateException("free failed", t);
        }
    }
}
