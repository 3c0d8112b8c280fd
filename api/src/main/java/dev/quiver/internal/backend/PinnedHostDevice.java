package dev.quiver.internal.backend;

import dev.quiver.internal.pool.PinnedRanges;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.PinnedHostMemory;
import dev.quiver.spi.host.HostDevice;

import java.lang.foreign.MemorySegment;

/**
 * Host memory pinned for one device, served as a CPU device: its allocations are the device's
 * {@link PinnedHostMemory#allocateHost} (registered in {@link PinnedRanges} while they live), and everything
 * else is the process's host device. Arrays copied to the host from that device land here, so their memory
 * moves back to the device at the full rate; its checked view's pool is the device's pinned host pool.
 * Thread-safe as the device is.
 */
final class PinnedHostDevice implements BackendDevice {
    private final BackendDevice device;
    private final PinnedHostMemory pinned;
    private final String label;
    private final HostDevice host = HostMemory.unchecked();

    /**
     * @param device the device the memory is pinned for, without the API's checks
     * @param pinned that device's pinned host memory, without the API's checks
     * @param label  how messages name that device
     */
    PinnedHostDevice(BackendDevice device, PinnedHostMemory pinned, String label) {
        this.device = device;
        this.pinned = pinned;
        this.label = label;
    }

    /** {@return the host's: {@code ARROW_DEVICE_CPU}} */
    @Override
    public int deviceType() {
        return host.deviceType();
    }

    /** {@return the host's: -1} */
    @Override
    public long deviceId() {
        return host.deviceId();
    }

    @Override
    public String name() {
        return "host memory pinned for " + label;
    }

    /** {@return the device's memory: the pinned pool caches as much as the device's own pool} */
    @Override
    public long totalMemory() {
        return device.totalMemory();
    }

    /** {@return the host's: true} */
    @Override
    public boolean hostAccessible() {
        return host.hostAccessible();
    }

    /** {@return the host's: {@link dev.quiver.spi.HardwareKind#CPU}, host memory} */
    @Override
    public dev.quiver.spi.HardwareKind hardwareKind() {
        return host.hardwareKind();
    }

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        MemorySegment memory = pinned.allocateHost(Math.max(1, byteSize), alignment);
        PinnedRanges.add(memory);
        return memory.asSlice(0, byteSize);
    }

    @Override
    public void free(MemorySegment pointer) {
        PinnedRanges.remove(pointer);
        pinned.freeHost(pointer);
    }

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        host.copyFromHost(source, destination, destinationOffset, stream);
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        host.copyToHost(source, sourceOffset, destination, stream);
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination, long destinationOffset,
                                 long byteCount, MemorySegment stream) {
        host.copyWithinDevice(source, sourceOffset, destination, destinationOffset, byteCount, stream);
    }

    @Override
    public MemorySegment defaultStream() {
        return host.defaultStream();
    }

    @Override
    public MemorySegment createStream() {
        return host.createStream();
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        host.synchronizeStream(stream);
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        host.destroyStream(stream);
    }

    @Override
    public String toString() {
        return "CPU:-1 (" + name() + ")";
    }
}
