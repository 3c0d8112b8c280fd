package dev.quiver.spi;

/**
 * The {@code ARROW_DEVICE_*} codes of the Arrow C Device Data Interface. For codes 1 to 16 they equal
 * DLPack's {@code DLDeviceType}; codes 5 and 6 are unassigned. A code not listed here is still a valid
 * device type: Arrow adds codes only after DLPack has them.
 */
public final class DeviceTypeCodes {
    /** Host memory. */
    public static final int CPU = 1;
    /** CUDA device memory. */
    public static final int CUDA = 2;
    /** CUDA pinned host memory ({@code cudaMallocHost}). */
    public static final int CUDA_HOST = 3;
    /** OpenCL device memory. */
    public static final int OPENCL = 4;
    /**
     * Vulkan buffer memory. Each {@code buffers[i]} is a {@code VkBuffer} handle (non-dispatchable, 64 bits)
     * of the producer's {@code VkDevice}, never a host address: offsets travel beside it and are never added
     * to it. {@code sync_event} is a {@code VkEvent*}.
     */
    public static final int VULKAN = 7;
    /** Metal buffer memory. */
    public static final int METAL = 8;
    /** Verilog simulator buffer. */
    public static final int VPI = 9;
    /** ROCm/HIP device memory. */
    public static final int ROCM = 10;
    /** ROCm pinned host memory ({@code hipMallocHost}). */
    public static final int ROCM_HOST = 11;
    /** Reserved for extension devices: the producer defines the meaning of pointers and events. */
    public static final int EXT_DEV = 12;
    /** CUDA managed (unified) memory ({@code cudaMallocManaged}). */
    public static final int CUDA_MANAGED = 13;
    /** oneAPI unified shared memory. */
    public static final int ONEAPI = 14;
    /** WebGPU buffer memory. */
    public static final int WEBGPU = 15;
    /** Qualcomm Hexagon DSP memory. */
    public static final int HEXAGON = 16;

    private DeviceTypeCodes() {}

    /**
     * Whether the buffer pointers of a device type are addresses, on which byte arithmetic is valid, or opaque
     * handles (OpenCL {@code cl_mem}, Vulkan and Metal buffers, WebGPU buffers, producer-defined extension
     * memory), for which an offset must travel beside the handle.
     *
     * @param deviceType an {@code ARROW_DEVICE_*} / DLPack device code
     * @return true if {@code pointer + n} addresses byte {@code n} of the buffer: host memory, CUDA and HIP
     *         device pointers (plain addresses in the device's address space), and oneAPI USM pointers;
     *         false for every other code, known or not
     */
    public static boolean pointersAreAddresses(int deviceType) {
        return switch (deviceType) {
            case CPU, CUDA, CUDA_HOST, CUDA_MANAGED, ROCM, ROCM_HOST, ONEAPI -> true;
            default -> false;
        };
    }
}
