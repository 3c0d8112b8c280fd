package dev.quiver.internal;

import dev.quiver.spi.DeviceTypeCodes;

/**
 * Whether the buffer pointers of a device type are addresses, on which byte arithmetic is valid, or opaque
 * handles (OpenCL {@code cl_mem}, Vulkan and Metal buffers, WebGPU buffers, producer-defined extension
 * memory), for which an offset must travel beside the handle.
 */
public final class PointerKind {
    private PointerKind() {}

    /**
     * @param deviceType an {@code ARROW_DEVICE_*} / DLPack device code
     * @return true if {@code pointer + n} addresses byte {@code n} of the buffer: host memory, CUDA and HIP
     *         device pointers (plain addresses in the device's address space), and oneAPI USM pointers;
     *         false for every other code, known or not
     */
    public static boolean isAddress(int deviceType) {
        return switch (deviceType) {
            case DeviceTypeCodes.CPU, DeviceTypeCodes.CUDA, DeviceTypeCodes.CUDA_HOST, DeviceTypeCodes.CUDA_MANAGED,
                 DeviceTypeCodes.ROCM, DeviceTypeCodes.ROCM_HOST, DeviceTypeCodes.ONEAPI -> true;
            default -> false;
        };
    }
}
