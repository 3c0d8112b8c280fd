package dev.quiver.internal.validate;

import java.lang.foreign.MemorySegment;
import java.util.function.ToLongFunction;

/**
 * A sink that knows the true size of some buffers: a range that starts at such a buffer and runs past its
 * size is unreadable, whatever the process's mappings say, and is named as too long for the buffer; a range
 * within it is readable without asking the mappings, as the caller vouches for the buffer (memory it holds,
 * of that size). Where the size is unknown (-1), the wrapped sink decides. Used where the sizes of the buffers that actually
 * arrived are known (an IPC body, a Flight message), so that an array whose offsets run past them is refused
 * before any byte past them is read. Threading and lifetime are the wrapped sink's.
 */
final class CapacityFaults implements Faults {
    private final Faults inner;
    private final ToLongFunction<MemorySegment> capacity;

    private CapacityFaults(Faults inner, ToLongFunction<MemorySegment> capacity) {
        this.inner = inner;
        this.capacity = capacity;
    }

    /**
     * @param inner    the sink that reports and decides for buffers of unknown size
     * @param capacity the size in bytes of the buffer starting at a pointer, or -1 if unknown
     * @return the sink
     */
    static Faults of(Faults inner, ToLongFunction<MemorySegment> capacity) {
        return new CapacityFaults(inner, capacity);
    }

    @Override
    public void report(Fault fault, String path, String message) {
        inner.report(fault, path, message);
    }

    @Override
    public boolean stopsAtFirst() {
        return inner.stopsAtFirst();
    }

    @Override
    public boolean checksPointers() {
        return true;
    }

    @Override
    public long readableBytes(MemorySegment pointer, long max) {
        return readableBytes(pointer.address(), max);
    }

    @Override
    public long readableBytes(long address, long max) {
        long known = capacity.applyAsLong(MemorySegment.ofAddress(address));
        return known >= 0 ? Math.max(0, Math.min(max, known)) : inner.readableBytes(address, max);
    }

    @Override
    public boolean canRead(long address, long bytes) {
        long known = capacity.applyAsLong(MemorySegment.ofAddress(address));
        return known >= 0 ? bytes <= known : inner.canRead(address, bytes);
    }

    @Override
    public String unreadableReason(long address, long bytes) {
        long known = capacity.applyAsLong(MemorySegment.ofAddress(address));
        return known >= 0 && bytes > known
                ? "the array addresses " + bytes + " bytes but the buffer holds " + known
                : inner.unreadableReason(address, bytes);
    }
}
