package dev.quiver.internal;

import dev.quiver.internal.abi.Pointers;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Host memory from the JDK, as a copy target that needs no CPU plugin: what
 * {@link dev.quiver.DeviceArray#copyToHost()} copies into. One shared arena per allocation, closed on
 * {@link #free}. Thread-safe; has no events and completes copies before returning.
 */
public final class HostMemory implements BackendDevice {
    /** The one instance. */
    public static final HostMemory INSTANCE = new HostMemory();

    private final ConcurrentHashMap<Long, Arena> arenas = new ConcurrentHashMap<>();

    private HostMemory() {}

    @Override
    public int deviceType() {
        return DeviceTypeCodes.CPU;
    }

    @Override
    public long deviceId() {
        return -1;
    }

    @Override
    public String name() {
        return "JVM host memory";
    }

    @Override
    public long totalMemory() {
        return -1;
    }

    @Override
    public boolean hostAccessible() {
        return true;
    }

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        Arena arena = Arena.ofShared();
        MemorySegment memory = arena.allocate(Math.max(byteSize, 1), Math.max(alignment, 64));
        arenas.put(memory.address(), arena);
        return memory.asSlice(0, byteSize);
    }

    @Override
    public void free(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return;
        }
        Arena arena = arenas.remove(pointer.address());
        if (arena == null) {
            throw new IllegalArgumentException("0x" + Long.toHexString(pointer.address()) + " is not live host memory of this JVM");
        }
        arena.close();
    }

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        MemorySegment.copy(source, 0, Pointers.bytes(destination, destinationOffset + source.byteSize()), destinationOffset, source.byteSize());
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        MemorySegment.copy(Pointers.bytes(source, sourceOffset + destination.byteSize()), sourceOffset, destination, 0, destination.byteSize());
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        MemorySegment.copy(Pointers.bytes(source, sourceOffset + byteCount), sourceOffset,
                Pointers.bytes(destination, destinationOffset + byteCount), destinationOffset, byteCount);
    }

    @Override
    public MemorySegment createStream() {
        return MemorySegment.NULL;
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        // copies complete before they return
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        // nothing was created
    }

    @Override
    public boolean supportsEvents() {
        return false;
    }
}
