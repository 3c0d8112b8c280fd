package dev.quiver.spi;

import java.lang.foreign.MemorySegment;

/**
 * A device capability: host memory pinned for the device ({@code cuMemAllocHost}, {@code hipHostMalloc}, an
 * OpenCL buffer made with {@code CL_MEM_ALLOC_HOST_PTR} and mapped, a Vulkan host-visible buffer, ...), which
 * the host reads and writes directly and the device's {@link BackendDevice#copyFromHost} and
 * {@link BackendDevice#copyToHost} move at the device's full rate. Found with
 * {@code device.capability(PinnedHostMemory.class)}.
 *
 * <p><b>Ownership.</b> What {@link #allocateHost} returns is owned by the caller, who releases it exactly
 * once with {@link #freeHost} of the same capability, after all work using it completed.
 *
 * <p><b>Threading.</b> All methods may be called from any thread, concurrently.
 */
public interface PinnedHostMemory extends DeviceCapability {

    /**
     * {@return true if this memory is copied to and from the device faster than memory from {@code malloc},
     * so that Quiver should prefer it for host memory that moves to or from the device; false where it brings
     * nothing (memory the host shares with the device, a CPU-like device). The default is true.}
     */
    default boolean pinsHostMemory() {
        return true;
    }

    /**
     * Allocates host memory pinned for the device.
     *
     * @param byteSize  bytes, more than zero
     * @param alignment a power of two, at most 4096
     * @return a host segment of {@code byteSize} bytes, owned by the caller, released with {@link #freeHost}
     * @throws DeviceException if the memory cannot be had
     */
    MemorySegment allocateHost(long byteSize, long alignment);

    /**
     * Frees what {@link #allocateHost} returned, exactly once, after all work using it completed.
     *
     * @param memory the segment {@link #allocateHost} returned
     */
    void freeHost(MemorySegment memory);
}
