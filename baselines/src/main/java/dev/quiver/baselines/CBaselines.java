package dev.quiver.baselines;

import dev.quiver.cbuild.CSource;
import dev.quiver.cbuild.CompiledLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcalls into the C baselines. Each library is compiled (gcc -O2) and loaded on first use and stays
 * loaded; the handles may be called from any thread, but the OpenCL baseline keeps one context and queue
 * and expects one caller at a time.
 */
public final class CBaselines {
    private CBaselines() {}

    private static final class ExportImport {
        static final MethodHandle RUN = library("bench_export_import.c", List.of("-fno-builtin-malloc", "-fno-builtin-free"))
                .function("bench_export_import_release", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG));
    }

    private static final class Memcpy {
        static final MethodHandle RUN = library("bench_memcpy.c", List.of())
                .function("bench_memcpy_round_trip", FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG));
    }

    private static final class OpenCl {
        static final CompiledLibrary LIBRARY = library("bench_opencl.c", List.of("-Wl,--no-as-needed", "-l:libOpenCL.so.1"));
        static final MethodHandle OPEN = LIBRARY.function("bench_cl_open", FunctionDescriptor.of(JAVA_INT));
        static final MethodHandle ROUND_TRIP = LIBRARY.function("bench_cl_round_trip", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG));
        static final MethodHandle EVENT = LIBRARY.function("bench_cl_event", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
        static final MethodHandle OPEN_INDEX = LIBRARY.function("bench_cl_open_index", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        static final MethodHandle ROUND_TRIP_PINNED = LIBRARY.function("bench_cl_round_trip_pinned", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
        static final MethodHandle ALLOC = LIBRARY.function("bench_cl_alloc", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
    }

    private static final class Streams {
        static final CompiledLibrary LIBRARY = library("bench_streams.c", List.of());
        static final MethodHandle DRAIN = LIBRARY.function("bench_drain", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        static final MethodHandle PRODUCE = LIBRARY.function("bench_producer_export", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG));
    }

    private static final class ShareFloor {
        static final MethodHandle RUN = library("bench_share_floor.c", List.of())
                .function("bench_share_floor", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT));
    }

    /** {@return the baseline {@code source} (a resource of this package) compiled with -O2 and {@code flags}, loaded} */
    static CompiledLibrary library(String source, List<String> flags) {
        List<String> all = new java.util.ArrayList<>(List.of("-O2"));
        all.addAll(flags);
        return CompiledLibrary.of(List.of(CSource.arrowCAbi(), CSource.resource(CBaselines.class, source)), all);
    }

    /**
     * Export + import + release in C, {@code iterations} times, of a batch described by an ArrowArray and
     * ArrowSchema whose buffers exist ({@code bench_export_import.c}).
     *
     * @param array      the batch's ArrowArray (read only)
     * @param schema     its ArrowSchema (read only)
     * @param iterations repetitions
     * @return the nodes checked in all iterations
     * @throws IllegalStateException if the C consumer rejected the batch
     */
    public static long exportImportRelease(MemorySegment array, MemorySegment schema, long iterations) {
        long nodes = call(() -> (long) ExportImport.RUN.invokeExact(array, schema, iterations));
        if (nodes <= 0) {
            throw new IllegalStateException("the C consumer rejected the batch");
        }
        return nodes;
    }

    /**
     * Two C {@code memcpy} calls per iteration: {@code host} to {@code other} and back.
     *
     * @param host       a host buffer of {@code bytes}
     * @param other      another host buffer of {@code bytes}
     * @param bytes      bytes per copy
     * @param iterations repetitions
     * @return a byte of the result
     */
    public static long memcpyRoundTrip(MemorySegment host, MemorySegment other, long bytes, long iterations) {
        return call(() -> (long) Memcpy.RUN.invokeExact(host, other, bytes, iterations));
    }

    /** Opens the C OpenCL baseline's context and queue on the first device of the first platform. */
    public static void openOpenCl() {
        int rc = call(() -> (int) OpenCl.OPEN.invokeExact());
        if (rc != 0) {
            throw new IllegalStateException("the OpenCL baseline could not open a device: error " + rc);
        }
    }

    /**
     * Opens the C OpenCL baseline's context and queue on one device; the first call decides the device for
     * the life of the process.
     *
     * @param index the device's index over all platforms in enumeration order (Quiver's OpenCL device id)
     */
    public static void openOpenCl(int index) {
        int rc = call(() -> (int) OpenCl.OPEN_INDEX.invokeExact(index));
        if (rc != 0) {
            throw new IllegalStateException("the OpenCL baseline could not open device " + index + ": error " + rc);
        }
    }

    /**
     * The round trip of {@link #openClRoundTrip} from a {@code CL_MEM_ALLOC_HOST_PTR} buffer mapped for the host.
     *
     * @param bytes      bytes per copy
     * @param iterations repetitions
     */
    public static void openClRoundTripPinned(long bytes, long iterations) {
        check(call(() -> (long) OpenCl.ROUND_TRIP_PINNED.invokeExact(bytes, iterations)));
    }

    /**
     * clCreateBuffer + clReleaseMemObject, {@code iterations} times, from C.
     *
     * @param bytes      bytes per buffer
     * @param iterations repetitions
     */
    public static void openClAlloc(long bytes, long iterations) {
        check(call(() -> (long) OpenCl.ALLOC.invokeExact(bytes, iterations)));
    }

    /**
     * clEnqueueWriteBuffer + clEnqueueReadBuffer + clFinish, {@code iterations} times, from C.
     *
     * @param host       host memory of {@code bytes}
     * @param bytes      bytes per copy
     * @param iterations repetitions
     */
    public static void openClRoundTrip(MemorySegment host, long bytes, long iterations) {
        check(call(() -> (long) OpenCl.ROUND_TRIP.invokeExact(host, bytes, iterations)));
    }

    /**
     * clEnqueueMarkerWithWaitList + clWaitForEvents + clReleaseEvent, {@code iterations} times, from C.
     *
     * @param iterations repetitions
     */
    public static void openClEvents(long iterations) {
        check(call(() -> (long) OpenCl.EVENT.invokeExact(iterations)));
    }

    /**
     * Fills {@code stream} with a C producer of {@code batches} int32 batches of length 3.
     *
     * @param stream  an ArrowDeviceArrayStream to fill
     * @param batches how many batches it yields
     */
    public static void produceStream(MemorySegment stream, long batches) {
        call(() -> {
            Streams.PRODUCE.invokeExact(stream, batches);
            return null;
        });
    }

    /**
     * Drains a stream in C, releasing every array and then the stream.
     *
     * @param stream a live ArrowDeviceArrayStream
     * @return the batches received
     */
    public static long drainStream(MemorySegment stream) {
        return call(() -> (long) Streams.DRAIN.invokeExact(stream));
    }

    private static void check(long rc) {
        if (rc != 0) {
            throw new IllegalStateException("the OpenCL baseline failed with error " + rc);
        }
    }

    /** A downcall that may throw what {@code invokeExact} declares. */
    interface Call<T> {
        T run() throws Throwable;
    }

    /** @return what {@code call} returns, with checked throwables wrapped */
    static <T> T call(Call<T> call) {
        try {
            return call.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * The floor of a stream of small batches between two processes ({@code bench_share_floor.c}): a child process
     * forked for it writes {@code batches} frames of {@code bodyBytes} bytes (docs/SHARING.md's BATCH framing) to
     * this one over a Unix domain socket, within a window of {@code window} batches that this process tops up
     * with one write of RELEASED and REQUEST every half window; no Arrow work on either side.
     *
     * @param batches   frames to stream
     * @param bodyBytes bytes of each frame's body, 0 to 4,096
     * @param window    batches allowed ahead of the reader, 2 to 65,536
     * @return nanoseconds from the first REQUEST to the last frame read
     * @throws IllegalStateException if the socket, the fork or the child failed
     */
    public static long shareStreamFloor(long batches, int bodyBytes, int window) {
        long nanos = call(() -> (long) ShareFloor.RUN.invokeExact(batches, bodyBytes, window));
        if (nanos < 0) {
            throw new IllegalStateException("the C stream between two processes failed (socketpair, fork or the child)");
        }
        return nanos;
    }
}
