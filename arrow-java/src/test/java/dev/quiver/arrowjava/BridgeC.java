package dev.quiver.arrowjava;

import dev.quiver.testkit.CLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C on the other side of the bridge tests ({@code record_batches.c}, {@code stream_producers.c},
 * {@code consumers.c}), written from the specification and compiled with gcc on first use.
 */
final class BridgeC {
    private static final CLibrary LIB = CLibrary.fromResources(BridgeC.class,
            List.of("record_batches.h", "record_batches.c", "stream_producers.c", "consumers.c"), List.of());

    static final MethodHandle PRODUCER_NEW = LIB.function("producer_new", FunctionDescriptor.of(ADDRESS, JAVA_LONG, JAVA_LONG));
    static final MethodHandle PRODUCER_STAT = LIB.function("producer_stat", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT));
    static final MethodHandle PRODUCER_FREE = LIB.function("producer_free", FunctionDescriptor.ofVoid(ADDRESS));
    static final MethodHandle EXPORT_DEVICE_STREAM = LIB.function("producer_export_device_stream", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    static final MethodHandle EXPORT_ARRAY_STREAM = LIB.function("producer_export_array_stream", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    static final MethodHandle CONSUME_DEVICE_ARRAY = LIB.function("consume_device_array",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
    static final MethodHandle CONSUME_DEVICE_STREAM = LIB.function("consume_device_stream",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));

    /** What a C consumer saw: see {@code consumers.c}. */
    record Consumed(int code, long batches, long rows, long sum, long nulls, long bytes, long violations, long badReleases, long firstViolation) {
        static Consumed of(int code, MemorySegment stats) {
            long[] s = stats.toArray(JAVA_LONG);
            return new Consumed(code, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
        }
    }

    /** A C producer of record batches; the counters say what was released. */
    record Producer(MemorySegment handle) implements AutoCloseable {
        static Producer of(long batches, long rows) {
            return new Producer((MemorySegment) invoke(PRODUCER_NEW, batches, rows));
        }

        long batchesMade() {
            return stat(0);
        }

        long nodesReleased() {
            return stat(1);
        }

        long batchesFreed() {
            return stat(2);
        }

        long schemasReleased() {
            return stat(3);
        }

        long streamReleases() {
            return stat(4);
        }

        private long stat(int which) {
            return (long) invoke(PRODUCER_STAT, handle, which);
        }

        @Override
        public void close() {
            invoke(PRODUCER_FREE, handle);
        }
    }

    private BridgeC() {}

    static Consumed consumeDeviceArray(MemorySegment deviceArray, MemorySegment schema, boolean releaseOnThread) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stats = arena.allocate(JAVA_LONG, 8);
            int code = (int) invoke(CONSUME_DEVICE_ARRAY, deviceArray, schema, releaseOnThread ? 1 : 0, stats);
            return Consumed.of(code, stats);
        }
    }

    static Consumed consumeDeviceStream(MemorySegment stream, boolean releaseOnThread) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stats = arena.allocate(JAVA_LONG, 8);
            int code = (int) invoke(CONSUME_DEVICE_STREAM, stream, releaseOnThread ? 1 : 0, stats);
            return Consumed.of(code, stats);
        }
    }

    /**
     * @param handle    a downcall of this library
     * @param arguments its arguments
     * @return what it returned (null for void)
     */
    static Object invoke(MethodHandle handle, Object... arguments) {
        try {
            return handle.invokeWithArguments(arguments);
        } catch (Throwable t) {
            if (t instanceof RuntimeException unchecked) {
                throw unchecked;
            }
            throw new AssertionError("C call failed", t);
        }
    }
}
