package dev.quiver.internal.pool;

import dev.quiver.memory.DeviceAllocator;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.MemorySegment;

/**
 * A device's own allocator: the backend's {@code allocate} and {@code free}. Thread-safe as the backend is.
 *
 * @param backend the backend device, without the API's checks (the pool sits beneath them)
 */
record BackendAllocator(BackendDevice backend) implements DeviceAllocator {

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        return backend.allocate(byteSize, alignment);
    }

    @Override
    public void free(MemorySegment pointer) {
        backend.free(pointer);
    }

    @Override
    public String name() {
        return "device";
    }
}
