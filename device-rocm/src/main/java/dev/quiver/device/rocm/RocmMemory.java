package dev.quiver.device.rocm;

import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.DriverMemory;
import dev.quiver.device.ffm.MemoryKind;
import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.MemorySegment;

import static dev.quiver.device.rocm.HipConstants.hipHostMallocDefault;

/**
 * The two kinds of HIP memory, each an Arrow device type. Pointers of both are addresses in HIP's unified
 * virtual address space, so byte offsets may be added to them; only {@link #HOST} pointers may be
 * dereferenced by the host.
 */
enum RocmMemory implements DriverMemory<HipFunction> {
    /** {@code hipMalloc}: device memory, {@code ARROW_DEVICE_ROCM}. */
    DEVICE(new MemoryKind(DeviceTypeCodes.ROCM, "ROCM", false, "hipMalloc")),
    /** {@code hipHostMalloc}: page-locked host memory, {@code ARROW_DEVICE_ROCM_HOST}. */
    HOST(new MemoryKind(DeviceTypeCodes.ROCM_HOST, "ROCM_HOST", true, "hipHostMalloc"));

    final MemoryKind kind;

    RocmMemory(MemoryKind kind) {
        this.kind = kind;
    }

    @Override
    public MemoryKind kind() {
        return kind;
    }

    /** Allocates {@code size > 0} bytes; the caller has made the device current. */
    @Override
    public MemorySegment allocate(Bindings<HipFunction> api, long size) {
        return switch (this) {
            case DEVICE -> api.handleOut(HipFunction.hipMalloc, (h, out) -> (int) h.invokeExact(out, size));
            case HOST -> api.handleOut(HipFunction.hipHostMalloc, (h, out) -> (int) h.invokeExact(out, size, hipHostMallocDefault));
        };
    }

    /** Frees what {@link #allocate} returned; the caller has made the device current. */
    @Override
    public void free(Bindings<HipFunction> api, MemorySegment pointer) {
        switch (this) {
            case DEVICE -> api.check(HipFunction.hipFree, h -> (int) h.invokeExact(pointer));
            case HOST -> api.check(HipFunction.hipHostFree, h -> (int) h.invokeExact(pointer));
        }
    }
}
