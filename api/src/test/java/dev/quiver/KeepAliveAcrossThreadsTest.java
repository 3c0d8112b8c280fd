package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The release of an array's memory runs exactly once, when the array and every reference to it (slices, a
 * slice of a slice, {@link DeviceArray#retain()} references, a shared export released from C on a native
 * thread) are closed, on whichever thread closes last: here four threads close them at once, in a random
 * order, many times over.
 */
class KeepAliveAcrossThreadsTest {
    private static final Devices DEVICES = Backends.devices(List.of(HostProvider.host()), BackendSelection.all());
    private static final Field INT64 = Field.of("x", new ArrowType.Int(64, true), false);
    private static final int THREADS = 4;
    private static final int ROUNDS = 1_000;

    @Test
    void theLastCloseOnAnyThreadReleasesExactlyOnce() throws Exception {
        Random random = new Random(20_240_613);
        long exports = Diagnostics.liveExports();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                oneRound(random, pool, round);
            }
        } finally {
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
        assertEquals(exports, Diagnostics.liveExports(), "every struct released");
    }

    private static void oneRound(Random random, ExecutorService pool, int round) throws Exception {
        AtomicInteger releases = new AtomicInteger();
        AtomicInteger closesStarted = new AtomicInteger();
        AtomicInteger closesSeenByRelease = new AtomicInteger(-1);
        AtomicReference<Thread> releasedOn = new AtomicReference<>();
        Arena memory = Arena.ofShared();
        MemorySegment values = memory.allocate(JAVA_LONG, 4);
        DeviceBuffer buffer = DEVICES.cpu().wrap(values, values.byteSize(), () -> {
            closesSeenByRelease.set(closesStarted.get());
            releasedOn.set(Thread.currentThread());
            releases.incrementAndGet();
            memory.close();
        });
        DeviceArray array = ArrayBuilder.of(INT64, DEVICES.cpu()).length(4).nullCount(0).absentBuffer().buffer(buffer).build();
        Arena structs = Arena.ofShared();
        MemorySegment exported = ArrowDeviceArrayLayout.allocate(structs);
        MemorySegment schema = ArrowSchemaLayout.allocate(structs);
        Interchange.exportShared(array, exported, schema);
        DeviceArray slice = array.slice(1, 3);
        List<AutoCloseable> holders = new ArrayList<>(List.of(array, slice, slice.slice(1, 1), array.slice(0, 2),
                array.retain(), slice.retain(), () -> assertEquals(0, CConsumer.releaseOnNativeThread(exported, schema))));
        Collections.shuffle(holders, random);
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Future<?>> closers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            List<AutoCloseable> mine = holders.subList(t * holders.size() / THREADS, (t + 1) * holders.size() / THREADS);
            closers.add(pool.submit(() -> {
                start.await();
                for (AutoCloseable holder : mine) {
                    closesStarted.incrementAndGet();
                    holder.close();
                }
                return null;
            }));
        }
        for (Future<?> closer : closers) {
            closer.get(1, TimeUnit.MINUTES);
        }
        structs.close();
        assertEquals(1, releases.get(), "round " + round + ": released exactly once");
        assertEquals(holders.size(), closesSeenByRelease.get(), "round " + round + ": released only after every holder began to close");
        assertNotNull(releasedOn.get());
        assertNotEquals(Thread.currentThread(), releasedOn.get(), "released on a closing thread, not the test's");
    }
}
