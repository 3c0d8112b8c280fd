package dev.quiver.baselines;

import dev.quiver.cbuild.CompiledLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcalls into the C baseline of CUDA ({@code bench_cuda.c}): copies from pageable and pinned memory,
 * allocation (plain and stream-ordered) and events, written against the driver API on device 0's primary
 * context. Compiled (gcc -O2, against the toolkit's {@code cuda.h}: system property {@code quiver.cuda.include},
 * default {@code /usr/local/cuda/include}) and loaded on first use; the driver is loaded with {@code dlopen}
 * (system property {@code quiver.cuda.library}, default {@code libcuda.so.1}). One caller at a time.
 */
public final class CudaBaselines {
    private CudaBaselines() {}

    private static final class Library {
        static final CompiledLibrary LIBRARY = CBaselines.library("bench_cuda.c",
                List.of("-I" + System.getProperty("quiver.cuda.include", "/usr/local/cuda/include"), "-Wl,--no-as-needed", "-ldl"));
        static final MethodHandle OPEN = LIBRARY.function("bench_cuda_open", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle ROUND_TRIP = LIBRARY.function("bench_cuda_round_trip",
                FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        static final MethodHandle HAS_ASYNC = LIBRARY.function("bench_cuda_has_async_alloc", FunctionDescriptor.of(JAVA_INT));
        static final MethodHandle ALLOC = LIBRARY.function("bench_cuda_alloc", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        static final MethodHandle EVENT = LIBRARY.function("bench_cuda_event", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    }

    /**
     * Loads the driver and opens device 0's primary context, once.
     *
     * @throws IllegalStateException naming the error if the driver is missing or refuses
     */
    public static void open() {
        String library = System.getProperty("quiver.cuda.library", "libcuda.so.1");
        int rc;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocateFrom(library);
            rc = call(() -> (int) Library.OPEN.invokeExact(name));
        }
        if (rc != 0) {
            throw new IllegalStateException("the CUDA baseline could not open device 0 through " + library + ": "
                    + (rc == -1 ? "no such library or no cuGetProcAddress_v2" : "CUresult " + rc));
        }
    }

    /**
     * cuMemcpyHtoDAsync + cuMemcpyDtoHAsync + cuStreamSynchronize, {@code iterations} times.
     *
     * @param pageable   host memory of {@code bytes} (used when {@code pinned} is false)
     * @param bytes      bytes per copy
     * @param pinned     true to copy from cuMemAllocHost memory the baseline keeps instead
     * @param iterations repetitions
     */
    public static void roundTrip(MemorySegment pageable, long bytes, boolean pinned, long iterations) {
        check(call(() -> (long) Library.ROUND_TRIP.invokeExact(pageable, bytes, pinned ? 1L : 0L, iterations)));
    }

    /** {@return whether the driver has cuMemAllocAsync and cuMemFreeAsync} */
    public static boolean hasStreamOrderedAllocation() {
        return call(() -> (int) Library.HAS_ASYNC.invokeExact()) != 0;
    }

    /**
     * Allocation and free of {@code bytes}, {@code iterations} times.
     *
     * @param bytes         bytes per allocation
     * @param streamOrdered true for cuMemAllocAsync + cuMemFreeAsync on the default pool, false for
     *                      cuMemAlloc + cuMemFree
     * @param iterations    repetitions
     */
    public static void allocate(long bytes, boolean streamOrdered, long iterations) {
        check(call(() -> (long) Library.ALLOC.invokeExact(bytes, streamOrdered ? 1L : 0L, iterations)));
    }

    /**
     * cuEventCreate + cuEventRecord + cuEventSynchronize + cuEventDestroy, {@code iterations} times.
     *
     * @param iterations repetitions
     */
    public static void events(long iterations) {
        check(call(() -> (long) Library.EVENT.invokeExact(iterations)));
    }

    private static void check(long rc) {
        if (rc != 0) {
            throw new IllegalStateException("the CUDA baseline failed with CUresult " + rc);
        }
    }

    private static <T> T call(CBaselines.Call<T> call) {
        return CBaselines.call(call);
    }
}
