package dev.quiver.device.ffm;

/**
 * One kind of memory a vendor API allocates, as an Arrow device type. Immutable.
 *
 * @param deviceType     the {@code ARROW_DEVICE_*} code
 * @param typeName       its Arrow name, for example {@code CUDA_HOST}
 * @param hostAccessible whether the host may dereference its pointers
 * @param allocator      the vendor function that allocates it, for example {@code cuMemAllocHost}
 */
public record MemoryKind(int deviceType, String typeName, boolean hostAccessible, String allocator) {}
