package dev.quiver.share;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.share.internal.arrays.ArrayAssembly;
import dev.quiver.share.internal.arrays.CopiedLayout;
import dev.quiver.share.internal.arrays.HostNode;
import dev.quiver.share.internal.arrays.HostNodes;
import dev.quiver.share.internal.memory.SharedRegion;
import dev.quiver.share.internal.protocol.BatchMessage;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Host memory another process can map: one memory file ({@code memfd_create}, sealed against shrinking),
 * handed out front to back. An array whose buffers all lie in arenas goes to a {@link ShareSession} as handles
 * with no copy.
 *
 * {@snippet :
 * try (SharedHostArena arena = SharedHostArena.create(1 << 30)) {
 *     DeviceArray shared = arena.copyOf(HostVector.utf8("name", "a", "b").toDeviceArray());   // built here once
 *     session.send(shared);                                                                  // no copy
 * }
 * }
 *
 * <p><b>Ownership.</b> The memory is freed when the arena and everything allocated from it (buffers, arrays
 * built on them, batches a session still holds) are closed, in any order. Memory is not reused while the arena
 * lives: a receiver never sees a buffer change under it because the owner allocated again.
 *
 * <p><b>Threading.</b> Every method may be called from any thread.
 */
public final class SharedHostArena implements AutoCloseable {
    private static final long DEFAULT_ALIGNMENT = 64;

    private final SharedRegion region;
    private final Device device;
    private final AtomicInteger references = new AtomicInteger(1);
    private long used;
    private boolean closed;

    private SharedHostArena(SharedRegion region, Device device) {
        this.region = region;
        this.device = device;
    }

    /**
     * Creates an arena on the CPU of {@link Devices#system()}.
     *
     * @param capacity bytes, more than zero; pages are only committed as they are written
     * @return the arena, owned by the caller
     * @throws ShareException with {@link ShareException.Reason#SYSTEM} if the kernel refuses the memory file
     */
    public static SharedHostArena create(long capacity) {
        return create(capacity, Devices.system().cpu());
    }

    /**
     * Creates an arena whose buffers belong to {@code cpu}.
     *
     * @param capacity bytes, more than zero
     * @param cpu      a CPU device
     * @return the arena, owned by the caller
     * @throws IllegalArgumentException if {@code cpu} is not a CPU device or {@code capacity} is not positive
     * @throws ShareException           with {@link ShareException.Reason#SYSTEM} if the kernel refuses the memory file
     */
    public static SharedHostArena create(long capacity, Device cpu) {
        if (cpu.type() != DeviceType.CPU) {
            throw new IllegalArgumentException("a shared host arena is CPU memory, not " + cpu);
        }
        try {
            return new SharedHostArena(SharedRegion.create("quiver-arena", capacity), cpu);
        } catch (dev.quiver.share.internal.posix.SystemCallException e) {
            throw new ShareException(ShareException.Reason.SYSTEM, "cannot create a shared arena of " + capacity + " bytes: " + e.getMessage(), e);
        }
    }

    /** {@return the bytes the arena holds} */
    public long capacity() {
        return region.size();
    }

    /** {@return the bytes handed out so far, alignment included} */
    public synchronized long used() {
        return used;
    }

    /**
     * Allocates a buffer, 64-byte aligned.
     *
     * @param byteSize bytes, 0 or more
     * @return the buffer, owned by the caller, who closes it or moves it into an array
     * @throws IllegalStateException if the arena is closed or full
     */
    public DeviceBuffer allocate(long byteSize) {
        return allocate(byteSize, DEFAULT_ALIGNMENT);
    }

    /**
     * Allocates a buffer.
     *
     * @param byteSize  bytes, 0 or more
     * @param alignment a power of two, at most 4096
     * @return the buffer, owned by the caller, who closes it or moves it into an array
     * @throws IllegalArgumentException if the size is negative or the alignment not a power of two up to 4096
     * @throws IllegalStateException    if the arena is closed or has not {@code byteSize} bytes left
     */
    public DeviceBuffer allocate(long byteSize, long alignment) {
        if (byteSize < 0 || alignment <= 0 || Long.bitCount(alignment) != 1 || alignment > 4096) {
            throw new IllegalArgumentException("allocating " + byteSize + " bytes aligned to " + alignment
                    + ": the size must not be negative and the alignment a power of two up to 4096");
        }
        MemorySegment slice = reserve(byteSize, alignment);
        try {
            return device.wrap(slice, byteSize, this::release);
        } catch (RuntimeException e) {
            release();
            throw e;
        }
    }

    private synchronized MemorySegment reserve(long byteSize, long alignment) {
        if (closed) {
            throw new IllegalStateException("the arena is closed");
        }
        long start = (used + alignment - 1) & -alignment;
        if (start > region.size() || byteSize > region.size() - start) {
            throw new IllegalStateException("the arena of " + region.size() + " bytes has " + Math.max(0, region.size() - start)
                    + " bytes left; " + byteSize + " asked");
        }
        used = start + byteSize;
        references.incrementAndGet();
        return region.segment().asSlice(start, byteSize);
    }

    /**
     * Copies a CPU array (a device array is copied to the host first) into this arena, so that it shares with no
     * further copy.
     *
     * @param array an open array; the caller keeps it
     * @return the copy, owned by the caller
     * @throws IllegalStateException if the arena is closed or too small
     */
    public DeviceArray copyOf(DeviceArray array) {
        if (array.deviceType() != DeviceType.CPU) {
            try (DeviceArray host = Copies.toHost(array)) {
                return copyOf(host);
            }
        }
        List<HostNode> nodes = HostNodes.of(array);
        long bytes = Math.max(1, CopiedLayout.bytesNeeded(nodes));
        MemorySegment block = reserve(bytes, DEFAULT_ALIGNMENT);
        AutoCloseable hold = this::release;
        try {
            long base = block.address() - region.base();
            List<BatchMessage.Node> placed = CopiedLayout.copy(nodes, block, base, 0);
            return ArrayAssembly.build(array.field(), placed, (node, index, place) -> place.handle() == BatchMessage.NO_HANDLE ? null
                    : device.wrap(region.segment().asSlice(place.offset(), place.length()), place.length(), () -> { }), device, hold);
        } catch (RuntimeException e) {
            release();
            throw e;
        }
    }

    /** Lets go of the arena's own reference: the memory is freed once everything allocated from it is closed too. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        release();
    }

    private void release() {
        if (references.decrementAndGet() == 0) {
            region.close();
        }
    }

    @Override
    public String toString() {
        return "shared host arena of " + capacity() + " bytes, " + used() + " used";
    }
}
