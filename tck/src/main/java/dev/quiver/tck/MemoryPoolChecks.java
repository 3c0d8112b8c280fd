package dev.quiver.tck;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.memory.DeviceAllocator;
import dev.quiver.memory.MemoryPool;
import dev.quiver.memory.PinnedHostPolicy;
import dev.quiver.memory.PoolStats;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The memory pool of a device, as every backend must serve it: blocks reused after a free, given back by a
 * trim, held within the limit, freed in stream order, taken from an allocator the application brings, and
 * uploads from host memory that keep their source alive until they complete. Each check leaves the pool as
 * it found it (its limits, its allocator) and nothing of its own in use. Stateless; one thread.
 */
final class MemoryPoolChecks {
    private static final long MIB = 1024 * 1024;

    private MemoryPoolChecks() {}

    /** A freed block is handed out again for a request of the same size class; a trim gives it back. */
    static void reusesFreedBlocksAndTrimsThem(Device device) {
        MemoryPool pool = device.memoryPool();
        long cacheLimit = pool.cacheLimit();
        try {
            pool.setCacheLimit(Math.max(cacheLimit, 16 * MIB));
            reuses(device, pool);
        } finally {
            pool.setCacheLimit(cacheLimit);
        }
    }

    private static void reuses(Device device, MemoryPool pool) {
        PoolStats before = pool.stats();
        long first;
        try (DeviceBuffer buffer = device.allocate(3 * MIB)) {
            first = buffer.pointer().address();
        }
        PoolStats freed = pool.stats();
        assertEquals(before.bytesInUse(), freed.bytesInUse(), device + ": a closed buffer is no longer in use");
        assertTrue(freed.bytesCached() > before.bytesCached(),
                device + ": a closed buffer is cached: " + freed);
        try (DeviceBuffer again = device.allocate(3 * MIB - 100)) {
            PoolStats reused = pool.stats();
            assertEquals(freed.hits() + 1, reused.hits(), device + ": the same size class is served from the cache: " + reused);
            assertEquals(freed.allocatorCalls(), reused.allocatorCalls(), device + ": without asking the allocator");
            assertEquals(first, again.pointer().address(), device + ": the block freed last is handed out first");
        }
        pool.trim();
        PoolStats trimmed = pool.stats();
        assertEquals(0, trimmed.bytesCached(), device + ": a trim gives every cached block back: " + trimmed);
        assertTrue(trimmed.trimmedBytes() >= freed.trimmedBytes() + 3 * MIB, device + ": and counts it: " + trimmed);
    }

    /** Beyond the limit a request fails, naming the limit; with no cache room a free goes to the allocator. */
    static void keepsWithinItsLimits(Device device) {
        MemoryPool pool = device.memoryPool();
        long limit = pool.limit();
        long cacheLimit = pool.cacheLimit();
        try {
            pool.trim();
            pool.setLimit(pool.stats().bytesHeld() + MIB);
            RuntimeException refused = assertThrows(RuntimeException.class, () -> device.allocate(2 * MIB).close());
            assertTrue(refused.getMessage().contains("limit"), device + ": the refusal names the limit: " + refused.getMessage());
            device.allocate(MIB / 2).close();
            pool.setLimit(limit);
            pool.setCacheLimit(0);
            assertEquals(0, pool.stats().bytesCached(), device + ": a cache limit of 0 empties the cache");
            long calls = pool.stats().allocatorCalls();
            device.allocate(MIB).close();
            device.allocate(MIB).close();
            assertEquals(calls + 2, pool.stats().allocatorCalls(), device + ": with caching off every request asks the allocator");
            assertEquals(0, pool.stats().bytesCached(), device + ": and every free gives back");
        } finally {
            pool.setLimit(limit);
            pool.setCacheLimit(cacheLimit);
        }
    }

    /**
     * A buffer closed in stream order is pending until the work before it completes, then cached; the copy
     * enqueued before it still reads the right bytes.
     */
    static void freesInStreamOrder(Device device) {
        MemoryPool pool = device.memoryPool();
        long cacheLimit = pool.cacheLimit();
        pool.setCacheLimit(Math.max(cacheLimit, 16 * MIB));
        try {
            freesInOrder(device, pool);
        } finally {
            pool.setCacheLimit(cacheLimit);
        }
    }

    private static void freesInOrder(Device device, MemoryPool pool) {
        pool.trim();
        PoolStats before = pool.stats();
        try (Arena arena = Arena.ofConfined(); DeviceStream stream = device.createStream()) {
            MemorySegment host = arena.allocate(MIB).fill((byte) 5);
            MemorySegment back = arena.allocate(MIB);
            DeviceBuffer buffer = device.allocate(MIB);
            buffer.copyFromHost(host, 0, stream);
            buffer.copyToHost(0, back, stream);
            buffer.closeAfter(stream);
            assertThrows(IllegalStateException.class, buffer::pointer, device + ": closed for Java at once");
            stream.synchronize();
            assertEquals(5, back.get(JAVA_BYTE, MIB - 1), device + ": the work enqueued before the free ran on the memory");
            eventually(() -> pool.stats().bytesPending() == 0 && pool.stats().bytesInUse() == before.bytesInUse(),
                    device + ": the block leaves pending once the stream's work completed: " + pool.stats());
            assertTrue(pool.stats().bytesCached() > before.bytesCached(), device + ": and is cached: " + pool.stats());
        }
        pool.trim();
    }

    /**
     * An allocator the application brings serves new blocks, gets back every block it made, and memory from it
     * carries data like the device's own.
     */
    static void takesBlocksFromABroughtAllocator(Device device, BackendDevice backend) {
        MemoryPool pool = device.memoryPool();
        CountingAllocator brought = new CountingAllocator(backend);
        try {
            pool.useAllocator(brought);
            assertEquals(brought.name(), pool.stats().allocator(), device + ": statistics name the allocator");
            try (Arena arena = Arena.ofConfined(); DeviceBuffer buffer = device.allocate(MIB + 1)) {
                assertEquals(1, brought.made.get(), device + ": the block came from the brought allocator");
                MemorySegment host = arena.allocate(MIB + 1).fill((byte) 9);
                MemorySegment back = arena.allocate(MIB + 1);
                DeviceStream stream = device.defaultStream();
                buffer.copyFromHost(host, 0, stream);
                buffer.copyToHost(0, back, stream);
                stream.synchronize();
                assertEquals(9, back.get(JAVA_BYTE, MIB), device + ": memory of the brought allocator carries data");
            }
            assertEquals(1, brought.live(), device + ": a freed block stays cached");
        } finally {
            pool.useAllocator(null);
        }
        assertEquals(0, brought.live(), device + ": going back to the device's allocator gives every block back to the brought one");
        assertEquals("device", pool.stats().allocator());
    }

    /**
     * An upload of a host array whose source is closed at once still lands whole: the copy keeps the source's
     * memory (and its own staging of offsets) alive until its work completes.
     */
    static void uploadsKeepTheirSourceAlive(Device device, Devices devices) {
        HostVector batch = SampleData.batch(5_000, 11);
        long exports = Diagnostics.liveExports();
        try (DeviceStream stream = device.createStream()) {
            DeviceArray source = batch.toDeviceArray(devices);
            DeviceArray copy = Copies.toDevice(source, device, stream);
            source.close();
            try (copy; DeviceArray back = Copies.toHost(copy)) {
                assertEquals(batch.values(), ArrayReader.of(back).values(), device + ": the upload read its source after the source was closed");
            }
        }
        try {
            assertTrue(Diagnostics.awaitStreamOrderReleases(Duration.ofSeconds(30)), device + ": the source is let go of once the upload completed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(e);
        }
        assertEquals(exports, Diagnostics.liveExports(), device + ": nothing of the source or the copy left unreleased");
    }

    /**
     * Host memory pinned for the device, where the backend has it, carries data both ways: host copies of
     * arrays land in the pinned pool and go back to it, and copies from and to pageable memory larger than
     * the staging threshold move through pinned staging buffers in chunks and arrive whole. A backend that
     * says pinning pays must have pinned memory.
     */
    static void movesDataThroughPinnedHostMemory(Device device, BackendDevice backend, Devices devices) {
        java.util.Optional<MemoryPool> found = device.pinnedHostPool();
        if (found.isEmpty()) {
            assertTrue(!backend.capability(dev.quiver.spi.PinnedHostMemory.class).map(dev.quiver.spi.PinnedHostMemory::pinsHostMemory).orElse(false),
                    device + ": says pinned host memory pays but has none");
            return;
        }
        MemoryPool pinned = found.get();
        PinnedHostPolicy policy = PinnedHostPolicy.current();
        PinnedHostPolicy.set(PinnedHostPolicy.ALWAYS);
        try (Arena arena = Arena.ofConfined(); DeviceStream stream = device.createStream()) {
            HostVector batch = SampleData.batch(2_000, 5);
            try (DeviceArray source = batch.toDeviceArray(devices); DeviceArray onDevice = Copies.toDevice(source, device)) {
                long before = pinned.stats().bytesInUse();
                try (DeviceArray back = Copies.toHost(onDevice)) {
                    assertTrue(pinned.stats().bytesInUse() > before, device + ": the host copy is in pinned memory: " + pinned.stats());
                    assertEquals(batch.values(), ArrayReader.of(back).values(), device + ": values through pinned memory");
                }
                assertEquals(before, pinned.stats().bytesInUse(), device + ": and went back to the pinned pool");
            }
            int size = 9 * (int) MIB + 4097;
            MemorySegment host = arena.allocate(size, 64);
            for (int i = 0; i < size; i += 4096) {
                host.set(JAVA_BYTE, i, (byte) (i >>> 12));
            }
            host.set(JAVA_BYTE, size - 1, (byte) 77);
            MemorySegment back = arena.allocate(size, 64);
            long stagedBefore = pinned.stats().requests();
            try (DeviceBuffer buffer = device.allocate(size)) {
                buffer.copyFromHost(host, 0, stream);
                buffer.copyToHost(0, back, stream);
                stream.synchronize();
            }
            assertTrue(pinned.stats().requests() > stagedBefore, device + ": pageable memory moved through pinned staging buffers");
            assertEquals(-1, host.mismatch(back), device + ": every byte arrived through the staging buffers");
        } finally {
            PinnedHostPolicy.set(policy);
        }
        try {
            assertTrue(Diagnostics.awaitStreamOrderReleases(Duration.ofSeconds(30)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(e);
        }
        assertEquals(0, pinned.stats().bytesInUse() + pinned.stats().bytesPending(), device + ": every staging buffer went back: " + pinned.stats());
        pinned.trim();
    }

    private static void eventually(BooleanSupplier condition, String message) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(message);
            }
            Thread.onSpinWait();
        }
    }

    /** An application's allocator, here the backend's own calls, counting what it made and freed. */
    private static final class CountingAllocator implements DeviceAllocator {
        private final BackendDevice backend;
        final AtomicLong made = new AtomicLong();
        final AtomicLong freed = new AtomicLong();

        CountingAllocator(BackendDevice backend) {
            this.backend = backend;
        }

        long live() {
            return made.get() - freed.get();
        }

        @Override
        public MemorySegment allocate(long byteSize, long alignment) {
            MemorySegment pointer = backend.allocate(byteSize, alignment);
            made.incrementAndGet();
            return pointer;
        }

        @Override
        public void free(MemorySegment pointer) {
            freed.incrementAndGet();
            backend.free(pointer);
        }

        @Override
        public String name() {
            return "counting allocator of the conformance suite";
        }
    }
}
