package dev.quiver.device.vulkan;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Command pools per recording thread: each thread records into its own pool, and pools of ended threads go away. */
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
                try (Arena arena = Arena.ofConfined()) {
                    device.copyFromHost(arena.allocate(4096), buffer, 0, stream);
                    device.synchronizeStream(stream);
                    hadPool.add(pools.hasPool(Thread.currentThread()));
                } finally {
                    device.free(buffer);
                    device.destroyStream(stream);
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertTrue(hadPool.size() == 6 && !hadPool.contains(false), "each thread recorded into a pool of its own: " + hadPool);
        Thread fresh = Thread.ofPlatform().start(() -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment buffer = device.allocate(64, 64);
                device.copyFromHost(arena.allocate(64), buffer, 0, device.defaultStream());
                device.synchronizeStream(device.defaultStream());
                device.free(buffer);
            }
        });
        fresh.join();
        for (Thread thread : threads) {
            assertFalse(pools.hasPool(thread), "the pool of an ended thread was destroyed when a new thread made one");
        }
    }
}
