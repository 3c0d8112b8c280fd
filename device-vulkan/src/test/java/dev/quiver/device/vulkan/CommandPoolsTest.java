package dev.quiver.device.vulkan;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Command pools per recording thread: each thread records into its own pool, and pools of ended threads go
 * away. Device-to-device copies record commands whatever the memory (host copies of mapped memory record none).
 */
class CommandPoolsTest {
    private final VulkanDevice device = Lavapipe.device();

    @Test
    void eachRecordingThreadHasItsOwnPoolUntilItEnds() throws Exception {
        CommandPools pools = device.context().commands();
        List<Thread> threads = new ArrayList<>();
        List<Boolean> hadPool = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 6; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                MemorySegment stream = device.createStream();
                MemorySegment buffer = device.allocate(4096, 64);
                MemorySegment other = device.allocate(4096, 64);
                try {
                    device.copyWithinDevice(buffer, 0, other, 0, 4096, stream);
                    device.synchronizeStream(stream);
                    hadPool.add(pools.hasPool(Thread.currentThread()));
                } finally {
                    device.free(buffer);
                    device.free(other);
                    device.destroyStream(stream);
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertTrue(hadPool.size() == 6 && !hadPool.contains(false), "each thread recorded into a pool of its own: " + hadPool);
        Thread fresh = Thread.ofPlatform().start(() -> {
            MemorySegment buffer = device.allocate(64, 64);
            device.copyWithinDevice(buffer, 0, buffer, 32, 32, device.defaultStream());
            device.synchronizeStream(device.defaultStream());
            device.free(buffer);
        });
        fresh.join();
        for (Thread thread : threads) {
            assertFalse(pools.hasPool(thread), "the pool of an ended thread was destroyed when a new thread made one");
        }
    }
}
