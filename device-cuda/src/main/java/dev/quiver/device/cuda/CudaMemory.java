package dev.quiver.device.cuda;

import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.DriverMemory;
import dev.quiver.device.ffm.MemoryKind;
import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.MemorySegment;

import static dev.quiver.device.cuda.CudaConstants.CU_MEM_ATTACH_GLOBAL;

/**
 * The three kinds of CUDA memory, each an Arrow device type. Pointers of every kind are addresses in CUDA's
 * unified virtual address space, so byte offsets may be added to them; only {@link #HOST} and
 * {@link #MANAGED} pointers may be dereferenced by the host.
 */
enum CudaMemory implements DriverMemory<CudaFunction> {
    /** {@code cuMemAlloc}: device memory, {@code ARROW_DEVICE_CUDA}. */
    DEVICE(new MemoryKind(DeviceTypeCodes.CUDA, "CUDA", false, "cuMemAlloc")),
    /** {@code cuMemAllocHost}: page-locked host memory, {@code ARROW_DEVICE_CUDA_HOST}. */
    HOST(new MemoryKind(DeviceTypeCodes.CUDA_HOST, "CUDA_HOST", true, "cuMemAllocHost")),
    /** {@code cuMemAllocManaged} with {@code CU_MEM_ATTACH_GLOBAL}: managed memory, {@code ARROW_DEVICE_CUDA_MANAGED}. */
    MANAGED(new MemoryKind(DeviceTypeCodes.CUDA_MANAGED, "CUDA_MANAGED", true, "cuMemAllocManaged"));

    final MemoryKind kind;

    CudaMemory(MemoryKind kind) {
        this.kind = kind;
    }

    @Override
    public MemoryKind kind() {
        return kind;
    }

    /** Allocates {@code size > 0} bytes; the caller has made the owning context current. */
    @Override
    public MemorySegment allocate(Bindings<CudaFunction> api, long size) {
        return switch (this) {
            case DEVICE -> api.handleOut(CudaFunction.cuMemAlloc, (h, out) -> (int) h.invokeExact(out, size));
            case HOST -> api.handleOut(CudaFunction.cuMemAllocHost, (h, out) -> (int) h.invokeExact(out, size));
            case MANAGED -> api.handleOut(CudaFunction.cuMemAllocManaged, (h, out) -> (int) h.invokeExact(out, size, CU_MEM_ATTACH_GLOBAL));
        };
    }

    /** Frees what {@link #allocate} returned; the caller has made the owning context current. */
    @Override
    public void free(Bindings<CudaFunction> api, MemorySegment pointer) {
        switch (this) {
            case DEVICE, MANAGED -> api.check(CudaFunction.cuMemFree, h -> (int) h.invokeExact(pointer.address()));
            case HOST -> api.check(CudaFunction.cuMemFreeHost, h -> (int) h.invokeExact(pointer));
        }
    }
}
