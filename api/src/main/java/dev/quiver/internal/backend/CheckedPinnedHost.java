package dev.quiver.internal.backend;

import dev.quiver.spi.DeviceException;
import dev.quiver.spi.PinnedHostMemory;

import java.lang.foreign.MemorySegment;

/**
 * A device's {@link PinnedHostMemory} behind the checks of its {@link CheckedBackendDevice}: a size more than
 * zero, an alignment a power of two and at most 4096, a non-NULL segment to free. Failures are
 * {@link IllegalArgumentException}s thrown before the backend is called; the backend's own failures become the
 * API's exceptions as the device view's do. Owns nothing; thread-safe as the backend is.
 *
 * @param backend the backend's capability, unchecked
 * @param device  the checked view of the device that offers it, for messages
 */
record CheckedPinnedHost(PinnedHostMemory backend, CheckedBackendDevice device) implements PinnedHostMemory {

    @Override
    public boolean pinsHostMemory() {
        return backend.pinsHostMemory();
    }

    @Override
    public MemorySegment allocateHost(long byteSize, long alignment) {
        try {
            DeviceArguments.nonNegative("byteSize", byteSize);
            DeviceArguments.powerOfTwo(alignment);
            if (byteSize == 0) {
                throw new IllegalArgumentException("byteSize of pinned host memory must be more than zero");
            }
            if (alignment > 4096) {
                throw new IllegalArgumentException("alignment of pinned host memory must be at most 4096, not " + alignment);
            }
            return backend.allocateHost(byteSize, alignment);
        } catch (DeviceException e) {
            throw device.failed(e);
        }
    }

    @Override
    public void freeHost(MemorySegment memory) {
        try {
            if (memory.equals(MemorySegment.NULL)) {
                throw new IllegalArgumentException("memory is NULL");
            }
            backend.freeHost(memory);
        } catch (DeviceException e) {
            throw device.failed(e);
        }
    }

    @Override
    public String toString() {
        return "pinned host memory of " + device;
    }
}
