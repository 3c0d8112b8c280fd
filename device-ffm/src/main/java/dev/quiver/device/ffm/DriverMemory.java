package dev.quiver.device.ffm;

import java.lang.foreign.MemorySegment;

/**
 * One kind of memory of a driver whose allocation calls run with the device's context current (CUDA's
 * {@code cuMemAlloc}, {@code cuMemAllocHost}, ...; HIP's {@code hipMalloc}, {@code hipHostMalloc}): what a
 * {@link DriverDevice} allocates with. Implementations (a backend's enum of its kinds) are immutable; the
 * calls may be made from any thread that has the context current.
 *
 * @param <F> the backend's table of entry points
 */
public interface DriverMemory<F extends Enum<F>> {
    /** {@return the kind of memory, as an Arrow device type} */
    MemoryKind kind();

    /**
     * Allocates; the caller has made the owning context current.
     *
     * @param api  the driver
     * @param size bytes, more than zero
     * @return the pointer
     */
    MemorySegment allocate(Bindings<F> api, long size);

    /**
     * Frees what {@link #allocate} returned; the caller has made the owning context current.
     *
     * @param api     the driver
     * @param pointer the pointer
     */
    void free(Bindings<F> api, MemorySegment pointer);
}
