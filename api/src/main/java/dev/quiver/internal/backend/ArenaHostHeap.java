package dev.quiver.internal.backend;

import dev.quiver.internal.abi.Pointers;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.host.HostHeap;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Host memory from the JDK: the host device's heap when the CPU backend did not install the C library's, so
 * that the API copies to the host with no CPU plugin at all. One shared arena per allocation, closed by
 * {@link #free}; copies are {@link MemorySegment#copy}. Only {@link HostMemory} makes one, for the life of the
 * process. Thread-safe.
 */
final class ArenaHostHeap implements HostHeap {
    private final Map<Long, Arena> arenas = new ConcurrentHashMap<>();

    /** Holds no memory until asked. */
    ArenaHostHeap() {}

    @Override
    public String description() {
        return "JDK arenas";
    }

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment memory = arena.allocate(byteSize, alignment);
            arenas.put(memory.address(), arena);
            return memory;
        } catch (OutOfMemoryError e) {
            arena.close();
            DeviceException exhausted = new DeviceException("cannot allocate " + byteSize + " bytes of host memory: "
                    + e.getMessage(), DeviceException.Kind.OUT_OF_MEMORY);
            exhausted.initCause(e);
            throw exhausted;
        }
    }

    @Override
    public void free(MemorySegment memory) {
        Arena arena = arenas.remove(memory.address());
        if (arena == null) {
            throw new IllegalArgumentException("0x" + Long.toHexString(memory.address()) + " is not memory of this heap");
        }
        arena.close();
    }

    @Override
    public MemorySegment view(MemorySegment address, long byteSize) {
        return Pointers.bytes(address, byteSize);
    }

    @Override
    public void copy(MemorySegment from, MemorySegment to) {
        MemorySegment.copy(from, 0, to, 0, from.byteSize());
    }
}
