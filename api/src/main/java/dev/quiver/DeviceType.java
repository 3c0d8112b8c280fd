package dev.quiver;

import dev.quiver.spi.DeviceTypeCodes;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A device type of the Arrow C Device Data Interface ({@code ARROW_DEVICE_*}), with its DLPack equivalent,
 * the event type the spec assigns to {@code sync_event}, and whether the host can address its memory.
 *
 * <p>Codes this build does not know (for example DLPack's 17 {@code kDLMAIA} or 18 {@code kDLTrn}) are
 * still device types: {@link #of(int)} returns an instance that carries the code unchanged through import
 * and export, and fails only where a backend is needed. Instances are immutable and compare by code.
 */
public final class DeviceType {
    /** Host memory; no events, {@code device_id} is -1. */
    public static final DeviceType CPU = known(DeviceTypeCodes.CPU, "CPU", "kDLCPU", null, true);
    /** CUDA device memory; {@code sync_event} is a {@code cudaEvent_t*}. */
    public static final DeviceType CUDA = known(DeviceTypeCodes.CUDA, "CUDA", "kDLCUDA", "cudaEvent_t*", false);
    /** CUDA pinned host memory; {@code sync_event} is a {@code cudaEvent_t*}. */
    public static final DeviceType CUDA_HOST = known(DeviceTypeCodes.CUDA_HOST, "CUDA_HOST", "kDLCUDAHost", "cudaEvent_t*", true);
    /** OpenCL memory; buffers are {@code cl_mem}; {@code sync_event} is a {@code cl_event*}. */
    public static final DeviceType OPENCL = known(DeviceTypeCodes.OPENCL, "OPENCL", "kDLOpenCL", "cl_event*", false);
    /** Vulkan memory; {@code sync_event} is a {@code VkEvent*}. */
    public static final DeviceType VULKAN = known(DeviceTypeCodes.VULKAN, "VULKAN", "kDLVulkan", "VkEvent*", false);
    /** Metal memory; {@code sync_event} is a {@code MTLEvent*}. */
    public static final DeviceType METAL = known(DeviceTypeCodes.METAL, "METAL", "kDLMetal", "MTLEvent*", false);
    /** Verilog simulator buffers; no event type. */
    public static final DeviceType VPI = known(DeviceTypeCodes.VPI, "VPI", "kDLVPI", null, false);
    /** ROCm device memory; {@code sync_event} is a {@code hipEvent_t*}. */
    public static final DeviceType ROCM = known(DeviceTypeCodes.ROCM, "ROCM", "kDLROCM", "hipEvent_t*", false);
    /** ROCm pinned host memory; {@code sync_event} is a {@code hipEvent_t*}. */
    public static final DeviceType ROCM_HOST = known(DeviceTypeCodes.ROCM_HOST, "ROCM_HOST", "kDLROCMHost", "hipEvent_t*", true);
    /** Extension devices; the producer defines pointers and events. */
    public static final DeviceType EXT_DEV = known(DeviceTypeCodes.EXT_DEV, "EXT_DEV", "kDLExtDev", "producer-defined", false);
    /** CUDA managed memory; {@code sync_event} is a {@code cudaEvent_t*}. */
    public static final DeviceType CUDA_MANAGED = known(DeviceTypeCodes.CUDA_MANAGED, "CUDA_MANAGED", "kDLCUDAManaged", "cudaEvent_t*", true);
    /** oneAPI unified shared memory; {@code sync_event} is a {@code sycl::event*}. */
    public static final DeviceType ONEAPI = known(DeviceTypeCodes.ONEAPI, "ONEAPI", "kDLOneAPI", "sycl::event*", false);
    /** WebGPU memory; no event type. */
    public static final DeviceType WEBGPU = known(DeviceTypeCodes.WEBGPU, "WEBGPU", "kDLWebGPU", null, false);
    /** Hexagon DSP memory; no event type. */
    public static final DeviceType HEXAGON = known(DeviceTypeCodes.HEXAGON, "HEXAGON", "kDLHexagon", null, false);

    private static final List<DeviceType> KNOWN = List.of(CPU, CUDA, CUDA_HOST, OPENCL, VULKAN, METAL, VPI, ROCM,
            ROCM_HOST, EXT_DEV, CUDA_MANAGED, ONEAPI, WEBGPU, HEXAGON);

    /** DLPack names of codes past Arrow's list, for messages only. */
    private static final String[] DLPACK_ONLY = {"kDLMAIA", "kDLTrn"};

    private final int code;
    private final String name;
    private final String dlpackName;
    private final String eventType;
    private final boolean hostAccessible;
    private final boolean known;

    private DeviceType(int code, String name, String dlpackName, String eventType, boolean hostAccessible, boolean known) {
        this.code = code;
        this.name = name;
        this.dlpackName = dlpackName;
        this.eventType = eventType;
        this.hostAccessible = hostAccessible;
        this.known = known;
    }

    private static DeviceType known(int code, String name, String dlpack, String event, boolean host) {
        return new DeviceType(code, name, dlpack, event, host, true);
    }

    /**
     * {@return the known device type, or an unknown one carrying {@code code} unchanged}
     * @param code an {@code ARROW_DEVICE_*} / DLPack device code
     */
    public static DeviceType of(int code) {
        for (DeviceType type : KNOWN) {
            if (type.code == code) {
                return type;
            }
        }
        int dlpackOnly = code - 17;
        String dlpack = dlpackOnly >= 0 && dlpackOnly < DLPACK_ONLY.length ? DLPACK_ONLY[dlpackOnly] : null;
        return new DeviceType(code, "UNKNOWN(" + code + ")", dlpack, null, false, false);
    }

    /**
     * {@return the known device type of that name}
     * @param name a name such as {@code "CUDA"} (case-insensitive)
     */
    public static Optional<DeviceType> byName(String name) {
        return KNOWN.stream().filter(t -> t.name.equalsIgnoreCase(name)).findFirst();
    }

    /** {@return every device type this build knows, by code} */
    public static List<DeviceType> known() {
        return KNOWN;
    }

    /** {@return the {@code ARROW_DEVICE_*} code} */
    public int code() {
        return code;
    }

    /** {@return the Arrow name without prefix, for example {@code CUDA_HOST}; {@code UNKNOWN(n)} if unknown} */
    public String name() {
        return name;
    }

    /** {@return the DLPack {@code DLDeviceType} name with the same code, if DLPack has one} */
    public Optional<String> dlpackName() {
        return Optional.ofNullable(dlpackName);
    }

    /** {@return the C type {@code sync_event} points to for this device type, if the spec assigns one} */
    public Optional<String> eventType() {
        return Optional.ofNullable(eventType);
    }

    /** {@return true if the host can address this memory directly (CPU, pinned and managed memory)} */
    public boolean isHostAccessible() {
        return hostAccessible;
    }

    /**
     * {@return true if this type's buffer pointers are addresses, on which byte arithmetic is valid (host memory,
     * CUDA and HIP device pointers, oneAPI USM); false where they are opaque handles (OpenCL {@code cl_mem},
     * Vulkan and Metal buffers, extension memory), for which an offset travels beside the handle}
     */
    public boolean pointersAreAddresses() {
        return DeviceTypeCodes.pointersAreAddresses(code);
    }

    /** {@return true if this build knows the code} */
    public boolean isKnown() {
        return known;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeviceType other && other.code == code;
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(code);
    }

    @Override
    public String toString() {
        return Objects.toString(name);
    }
}
