package dev.quiver.spark;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The Arrow Java allocator of this JVM's readers and writers: one root, never closed, and a child per reader or writer
 * so that each checks on close that it released everything.
 *
 * <p><b>Ownership and threading.</b> The root belongs to this class; each child to the caller of {@link #child}, who
 * closes it with {@link #close}. Thread-safe.
 */
final class SparkAllocators {
    private static final RootAllocator ROOT = new RootAllocator();
    private static final System.Logger LOG = System.getLogger(SparkAllocators.class.getName());

    private SparkAllocators() {}

    /** {@return a new child allocator, owned by the caller} @param name what it is for, in leak reports */
    static BufferAllocator child(String name) {
        return ROOT.newChildAllocator(name, 0, Long.MAX_VALUE);
    }

    /** {@return bytes held by every reader and writer of this JVM, for tests and health checks} */
    static long allocatedBytes() {
        return ROOT.getAllocatedMemory();
    }

    /**
     * Closes a child; memory still charged to it (a batch not released) is logged as a leak, not thrown, so that a
     * task's end is not turned into a failure; {@link #allocatedBytes()} still counts it.
     */
    static void close(BufferAllocator child) {
        try {
            child.close();
        } catch (IllegalStateException leaked) {
            LOG.log(System.Logger.Level.WARNING, "Arrow memory not released by " + child.getName() + ": " + leaked.getMessage());
        }
    }
}
