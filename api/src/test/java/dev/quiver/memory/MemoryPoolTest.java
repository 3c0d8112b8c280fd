package dev.quiver.memory;

import dev.quiver.plugin.Backends;
import dev.quiver.Copies;
import dev.quiver.ArrayBuilder;
import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.spi.BackendDevice;
import dev.quiver.DeviceOutOfMemoryException;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.ProbeResult;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory pool in front of a device, on the API's test double device (its allocations are Java arenas and
 * counted; its capacity can be set to act out a driver running out of memory): size classes, reuse, the
 * limits, a refused allocation retried after a trim, stream-ordered frees, an application's allocator, the
 * builder's kept resources and the JFR events. The conformance suite checks the same on every real backend.
 */
class MemoryPoolTest {
    private static final long MIB = 1 << 20;

    private final TestDoubleProvider provider = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
    private final Devices devices = Backends.devices(List.of(provider), BackendSelection.all());
    private final Device device = devices.get(DeviceType.EXT_DEV, 0);
    private final MemoryPool pool = device.memoryPool();

    @AfterEach
    void everythingGoesBack() throws InterruptedException {
        assertTrue(Diagnostics.awaitStreamOrderReleases(Duration.ofSeconds(30)));
        assertEquals(0, pool.stats().bytesInUse(), "nothing left in use: " + pool.stats());
        assertEquals(0, pool.stats().bytesPending(), "nothing left pending: " + pool.stats());
        pool.trim();
        assertEquals(0, provider.liveAllocations(), "a trimmed pool holds nothing of the device");
    }

    @Test
    void requestsAreRoundedToSizeClassesThatWasteAtMostAnEighth() {
        long[] sizes = {1, 511, 513, 4096, 4097, 5000, 3 * MIB + 1, 100 * MIB - 7};
        for (long size : sizes) {
            try (DeviceBuffer buffer = device.allocate(size)) {
                long block = pool.stats().bytesInUse();
                assertTrue(block >= size, size + " rounds up, not down: " + block);
                assertTrue(size <= 4096 ? block - size < 512 : block - size <= block / 8, size + " wastes at most an eighth: " + block);
                assertEquals(size, buffer.byteSize(), "the buffer is the size asked for");
            }
        }
    }

    @Test
    void aFreedBlockIsReusedForTheSameClassAndNotForAnother() {
        device.allocate(2 * MIB).close();
        PoolStats cached = pool.stats();
        assertEquals(1, cached.allocatorCalls());
        device.allocate(2 * MIB - 1000).close();
        assertEquals(1, pool.stats().allocatorCalls(), "same class: served from the cache");
        assertEquals(cached.hits() + 1, pool.stats().hits());
        device.allocate(4 * MIB).close();
        assertEquals(2, pool.stats().allocatorCalls(), "another class: a new block");
        assertEquals(2, provider.liveAllocations(), "both cached");
        assertEquals(2 * MIB + 4 * MIB, pool.stats().bytesCached());
        assertEquals(6 * MIB, pool.stats().highWater(), "the high-water mark counts everything held");
    }

    @Test
    void aLimitRefusesWithAMessageAndLoweringItTrims() {
        device.allocate(4 * MIB).close();
        pool.setLimit(3 * MIB);
        assertEquals(0, pool.stats().bytesCached(), "a limit below what is held frees the cache");
        try (DeviceBuffer held = device.allocate(2 * MIB)) {
            assertEquals(2 * MIB, held.byteSize(), "within the limit");
            DeviceOutOfMemoryException refused = assertThrows(DeviceOutOfMemoryException.class, () -> device.allocate(2 * MIB));
            assertTrue(refused.getMessage().contains("over its limit of " + 3 * MIB), refused.getMessage());
            assertEquals("EXT_DEV:0", refused.device());
            assertTrue(refused.call().isEmpty(), "no vendor call failed: the pool refused");
            assertTrue(refused.getMessage().contains("EXT_DEV:0"), "names the device: " + refused.getMessage());
        } finally {
            pool.setLimit(Long.MAX_VALUE);
        }
        assertThrows(IllegalArgumentException.class, () -> pool.setLimit(-1));
        assertThrows(IllegalArgumentException.class, () -> pool.setCacheLimit(-1));
    }

    @Test
    void whenTheDeviceRunsOutTheCacheIsTrimmedAndTheRequestRetried() {
        provider.capacity = 10 * MIB;
        device.allocate(6 * MIB).close();
        try (DeviceBuffer big = device.allocate(8 * MIB)) {
            assertEquals(8 * MIB, big.byteSize());
            assertEquals(8 * MIB, pool.stats().highWater(), "the most ever held: 6 MiB cached, then 8 MiB in their place, "
                    + "never the 14 MiB first asked of the device");
            assertEquals(0, pool.stats().bytesCached(), "the cached block went back to make room");
            assertTrue(pool.stats().trimmedBytes() >= 6 * MIB);
        }
        provider.capacity = Long.MAX_VALUE;
    }

    @Test
    void whenTrimmingCannotHelpTheDevicesErrorComesThrough() {
        provider.capacity = MIB;
        try {
            long highWater = pool.stats().highWater();
            DeviceOutOfMemoryException refused = assertThrows(DeviceOutOfMemoryException.class, () -> device.allocate(2 * MIB));
            assertEquals(highWater, pool.stats().highWater(), "a request the device refused never raised the high-water mark");
            assertThrows(DeviceOutOfMemoryException.class, () -> device.allocate(1L << 50));
            assertEquals(highWater, pool.stats().highWater(), "nor did a petabyte");
            assertTrue(refused.getMessage().startsWith("EXT_DEV:0: test double out of memory"), refused.getMessage());
            assertTrue(refused.getCause() instanceof DeviceException, "the backend's exception is the cause");
            assertEquals(0, pool.stats().bytesInUse(), "a refused request is not counted");
        } finally {
            provider.capacity = Long.MAX_VALUE;
        }
    }

    @Test
    void withCachingOffEveryFreeGoesToTheDevice() {
        long cacheLimit = pool.cacheLimit();
        pool.setCacheLimit(0);
        try {
            device.allocate(MIB).close();
            assertEquals(0, provider.liveAllocations());
            assertEquals(0, pool.stats().bytesCached());
        } finally {
            pool.setCacheLimit(cacheLimit);
        }
    }

    @Test
    void aBufferClosedInStreamOrderIsPendingUntilItsEventCompletes() throws InterruptedException {
        try (DeviceStream stream = device.createStream()) {
            DeviceBuffer buffer = device.allocate(MIB);
            buffer.closeAfter(stream);
            assertThrows(IllegalStateException.class, buffer::pointer);
            buffer.closeAfter(stream);   // a second close does nothing
            buffer.close();
            assertTrue(Diagnostics.awaitStreamOrderReleases(Duration.ofSeconds(30)));
            assertEquals(MIB, pool.stats().bytesCached(), "cached once the stream's work completed");
            assertFalse(provider.eventRecords.isEmpty(), "an event marked the stream's place");
        }
    }

    @Test
    void anArrayClosedInStreamOrderIsReleasedOnceItsEventCompletes() throws InterruptedException {
        long exports = Diagnostics.liveExports();
        try (DeviceStream stream = device.createStream()) {
            DeviceArray array;
            try (DeviceArray host = HostVector.int64("x", 1L, 2L, 3L).toDeviceArray(devices)) {
                array = Copies.toDevice(host, device);
            }
            array.closeAfter(stream);
            assertTrue(Diagnostics.awaitStreamOrderReleases(Duration.ofSeconds(30)));
            assertTrue(array.isClosed());
        }
        assertEquals(exports, Diagnostics.liveExports());
    }

    @Test
    void anApplicationsAllocatorServesNewBlocksAndGetsEachBack() {
        AtomicInteger made = new AtomicInteger();
        AtomicInteger freed = new AtomicInteger();
        // the application's own allocator: the test double's calls, not the device's (which is the pool itself)
        BackendDevice raw = ((ProbeResult.Available) provider.probe()).devices().getFirst();
        DeviceAllocator own = new DeviceAllocator() {
            @Override
            public MemorySegment allocate(long byteSize, long alignment) {
                made.incrementAndGet();
                return raw.allocate(byteSize, alignment);
            }

            @Override
            public void free(MemorySegment pointer) {
                freed.incrementAndGet();
                raw.free(pointer);
            }
        };
        device.allocate(MIB).close();          // a block of the device's own allocator, cached
        pool.useAllocator(own);
        assertEquals(0, pool.stats().bytesCached(), "the previous allocator's cache went back to it");
        DeviceBuffer kept = device.allocate(MIB);
        assertEquals(1, made.get(), "new blocks come from the application's allocator");
        device.allocate(MIB).close();
        pool.useAllocator(null);
        assertEquals(made.get() - 1, freed.get(), "its cached blocks went back to it; the one in use stays");
        kept.close();
        assertEquals(made.get(), freed.get(), "and the one in use went back to it when freed, not to the device");
    }

    @Test
    void aBuilderClosesWhatItKeepsAliveWhenTheArrayIsReleased() {
        AtomicInteger closed = new AtomicInteger();
        DeviceArray array = ArrayBuilder.of(Field.of("x", new ArrowType.Int(64, true), false), device)
                .length(2).nullCount(0).absentBuffer().buffer(device.allocate(16)).keepAlive(closed::incrementAndGet).build();
        assertEquals(0, closed.get());
        array.close();
        assertEquals(1, closed.get(), "closed with the array");
        AtomicInteger notBuilt = new AtomicInteger();
        DeviceBuffer tooSmall = device.allocate(1);
        ArrayBuilder failing = ArrayBuilder.of(Field.of("x", new ArrowType.Int(64, true), false), device)
                .length(2).nullCount(0).absentBuffer().buffer(tooSmall).keepAlive(notBuilt::incrementAndGet);
        assertThrows(IllegalArgumentException.class, failing::build);
        assertEquals(0, notBuilt.get(), "a failed build leaves the resource with the caller");
        tooSmall.close();
    }

    @Test
    void copiesComeFromThePoolAndGoBackToIt() {
        HostVector values = HostVector.utf8("s", "a", null, "ccc");
        try (DeviceArray host = values.toDeviceArray(devices)) {
            for (int i = 0; i < 3; i++) {
                try (DeviceArray copy = Copies.toDevice(host, device); DeviceArray back = Copies.toHost(copy)) {
                    assertEquals(values.values(), ArrayReader.of(back).values());
                }
            }
        }
        PoolStats stats = pool.stats();
        assertTrue(stats.hits() >= stats.requests() * 2 / 3 - 1, "the second and third copies reuse the first's blocks: " + stats);
    }

    @Test
    void aRecordingHoldsGrowAndTrimEvents(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pool.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("dev.quiver.PoolGrow");
            recording.enable("dev.quiver.PoolTrim");
            recording.start();
            device.allocate(3 * MIB).close();
            pool.trim();
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        RecordedEvent grow = events.stream().filter(e -> e.getEventType().getName().equals("dev.quiver.PoolGrow")).findFirst().orElseThrow();
        assertEquals("EXT_DEV:0", grow.getString("device"));
        assertTrue(grow.getLong("bytes") >= 3 * MIB);
        RecordedEvent trim = events.stream().filter(e -> e.getEventType().getName().equals("dev.quiver.PoolTrim")).findFirst().orElseThrow();
        assertEquals(0, trim.getLong("held"));
    }
}
