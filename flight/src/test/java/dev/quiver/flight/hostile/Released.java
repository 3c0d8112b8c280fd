package dev.quiver.flight.hostile;

import dev.quiver.flight.Eventually;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Waits ({@link Eventually}: 20 s at most) for an allocator to hold no more than it did before a call plus a
 * bound: a refused call's buffers go back as gRPC winds the call down, after the client has its answer.
 */
final class Released {
    /** What Arrow Java 19's reader may leave charged per message it refuses while growing a vector. */
    static final long READER_LEAK_BOUND = 1024;

    private Released() {}

    /**
     * @param what      the condition, for the failure message
     * @param allocator the allocator
     * @param before    what it held before the call
     * @param bound     how many more bytes it may hold after
     */
    static void backTo(String what, BufferAllocator allocator, long before, long bound) throws InterruptedException {
        Eventually.holds(what, () -> allocator.getAllocatedMemory() <= before + bound, () -> before + " bytes allocated before, "
                + allocator.getAllocatedMemory() + " after (" + bound + " allowed)\n" + allocator.toVerboseString());
    }
}
