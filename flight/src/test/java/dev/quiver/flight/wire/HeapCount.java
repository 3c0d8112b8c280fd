package dev.quiver.flight.wire;

import java.lang.management.ManagementFactory;

/** The heap the calling thread allocated so far (HotSpot's per-thread allocation counter). */
final class HeapCount {
    private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private HeapCount() {}

    /** {@return bytes the calling thread allocated on the heap since it started} */
    static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
