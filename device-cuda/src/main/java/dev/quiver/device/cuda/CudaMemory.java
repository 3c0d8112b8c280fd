package dev.quiver.device.cuda;

import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.MemorySegment;

import static dev.quiver.device.cuda.CudaConstants.CU_MEM_ATTACH_GLOBAL;

/**
 * The three kinds of CUDA memory, each an Arrow device type. Pointers of every kind are addresses in CUDA's
 * unified virtual address space, so byte offsets may be added to them; only {@link #HOST} and
 * {@link #MANAGED} pointers may be dereferenced by the host.
 */
enum CudaMemory {
    /** {@code cuMemAlloc}: device memory, {@code ARROW_DEVICE_CUDA}. */
    DEVICE(DeviceTypeCodes.CUDA, false, "cuMemAlloc"),
    /** {@code cuMemAllocHost}: page-locked host memory, {@code ARROW_DEVICE_CUDA_HOST}. */
    HOST(DeviceTypeCodes.CUDA_HOST, true, "cuMemAllocHost"),
    /** {@code cuMemAllocManaged} with {@code CU_MEM_ATTACH_GLOBAL}: managed memory, {@code ARROW_DEVICE_CUDA_MANAGED}. */
    MANAGED(DeviceTypeCodes.CUDA_MANAGED, true, "cuMemAllocManaged");

    private final int deviceType;
    private final boolean hostAccessible;
    private final String allocator;

    CudaMemory(int deviceType, boolean hostAccessible, String allocator) {
        this.deviceType = deviceType;
        this.hostAccessible = hostAccessible;
        this.allocator = allocator;
    }

    int deviceType() {
        return deviceType;
    }

    boolean hostAccessible() {
        return hostAccessible;
    }

    String allocator() {
        return allocator;
    }

    /** Allocates {@code size > 0} bytes; the caller has made the owning context current. */
    long allocate(CudaDriver driver, long size) {
        return switch (this) {
            case DEVICE -> driver.handleOut(CudaFunction.cuMemAlloc, (h, out) -> (int) h.invokeExact(out, size)).address();
            case HOST -> driver.handleOut(CudaFunction.cuMemAllocHost, (h, out) -> (int) h.invokeExact(out, size)).address();
            case MANAGED -> driver.handleOut(CudaFunction.cuMemAllocManaged,
                    (h, out) -> (int) h.invokeExact(out, size, CU_MEM_ATTACH_GLOBAL)).address();
        };
    }

    /** Frees what {@link #allocate} returned; the caller has made the owning context current. */
    void free(CudaDriver driver, long pointer) {
        switch (this) {
            case DEVICE, MANAGED -> driver.check(CudaFunction.cuMemFree, h -> (int) h.invokeExact(pointer));
            case HOST -> driver.check(CudaFunction.cuMemFreeHost, h -> (int) h.invokeExact(MemorySegment.ofAddress(pointer)));
        }
    }
}
