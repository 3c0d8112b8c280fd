package dev.quiver.testkit.backend;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The events of one {@link TestDoubleDevice}: tokens unique in the process (above the small values the
 * API's common checks leave alone), or blocks of host memory the device allocated, which it alone
 * recognises. Thread-safe.
 */
final class TestDoubleEvents {
    /** Token handles, shared by every device so that an event of one device given to another is told apart. */
    private static final AtomicLong TOKENS = new AtomicLong(0x100_0000);
    private static final long BLOCK_BYTES = 64;
    private static final long BLOCK_ALIGNMENT = 16;

    private final boolean inHostMemory;
    private final ConcurrentHashMap<Long, Arena> blocks = new ConcurrentHashMap<>();

    TestDoubleEvents(boolean inHostMemory) {
        this.inHostMemory = inHostMemory;
    }

    MemorySegment create() {
        if (!inHostMemory) {
            return MemorySegment.ofAddress(TOKENS.incrementAndGet());
        }
        Arena arena = Arena.ofShared();
        MemorySegment block = arena.allocate(BLOCK_BYTES, BLOCK_ALIGNMENT);
        blocks.put(block.address(), arena);
        return block;
    }

    /** Throws where events are host memory and {@code event} is not a live one of this device. */
    void check(MemorySegment event) {
        if (inHostMemory && !blocks.containsKey(event.address())) {
            throw new IllegalArgumentException("test double: 0x" + Long.toHexString(event.address()) + " is not an event");
        }
    }

    void destroy(MemorySegment event) {
        if (inHostMemory) {
            Arena arena = blocks.remove(event.address());
            if (arena == null) {
                throw new IllegalArgumentException("test double: 0x" + Long.toHexString(event.address()) + " is not an event");
            }
            arena.close();
        }
    }
}
