package dev.quiver.stream;

import dev.quiver.abi.ArrowDeviceArrayStreamLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The C pull producers of one test ({@code pull_producer.c}): made, exported into stream structs and
 * counted; {@link #close()} frees them and the structs. Confined to the test's thread.
 */
final class PullProducers implements AutoCloseable {
    static final int MADE = 0;
    static final int ARRAYS_RELEASED = 1;
    static final int SCHEMAS_RELEASED = 2;
    static final int STREAMS_RELEASED = 3;
    static final int GET_NEXT_CALLS = 4;
    static final int BLOCKED = 5;
    static final int CALLS_AFTER_RELEASE = 6;

    private final Arena arena = Arena.ofConfined();
    private final List<MemorySegment> producers = new ArrayList<>();

    /** @return a producer of {@code batches} int32 batches, with the faults the arguments ask for (-1 or 0: none) */
    MemorySegment producer(long batches, int deviceType, long mismatchAt, long invalidAt, long failAt, int failCode,
                           int schemaFailCode, boolean block) {
        MemorySegment p = StreamC.call(() -> (MemorySegment) StreamC.PULL_PRODUCER_NEW.invokeExact(batches, deviceType,
                mismatchAt, invalidAt, failAt, failCode, schemaFailCode, block ? 1 : 0));
        producers.add(p);
        return p;
    }

    /** @return a new stream struct the producer filled */
    MemorySegment export(MemorySegment producer) {
        MemorySegment stream = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
        StreamC.call(() -> {
            StreamC.PULL_PRODUCER_EXPORT.invokeExact(producer, stream);
            return null;
        });
        return stream;
    }

    /** @return native memory for a stream struct, freed with the producers */
    MemorySegment streamStruct() {
        return arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
    }

    /** @return one of the producer's counters ({@link #MADE} ...) */
    static long stat(MemorySegment producer, int which) {
        return StreamC.call(() -> (long) StreamC.PULL_PRODUCER_STAT.invokeExact(producer, which));
    }

    /** @return every producer made so far */
    List<MemorySegment> all() {
        return List.copyOf(producers);
    }

    @Override
    public void close() {
        for (MemorySegment p : producers) {
            StreamC.call(() -> {
                StreamC.PULL_PRODUCER_FREE.invokeExact(p);
                return null;
            });
        }
        arena.close();
    }
}
