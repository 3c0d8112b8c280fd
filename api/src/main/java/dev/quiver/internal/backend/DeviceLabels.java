package dev.quiver.internal.backend;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;

/**
 * How messages name a backend device: its own {@code toString()} where its class writes one (what it says differs
 * from {@link Object#toString()}'s class name and hash), else its type code, id and name. Stateless; thread-safe.
 */
final class DeviceLabels {
    private DeviceLabels() {}

    /**
     * @param backend a backend device
     * @return its name for messages
     */
    static String of(BackendDevice backend) {
        String own = backend.toString();
        if (!own.equals(objectToString(backend))) {
            return own;
        }
        return "device type " + backend.deviceType() + " id " + backend.deviceId() + " (" + backend.name() + ")";
    }

    /** {@return what {@link Object#toString()} would say of {@code backend}: a class that writes none says this} */
    private static String objectToString(Object backend) {
        return backend.getClass().getName() + "@" + Integer.toHexString(backend.hashCode());
    }

    /**
     * @param backend a backend device
     * @return its type and id as Arrow's device type names spell them, for example {@code CUDA:0}; asks the
     *         backend nothing but its codes
     */
    static String typeAndId(BackendDevice backend) {
        String type = switch (backend.deviceType()) {
            case DeviceTypeCodes.CPU -> "CPU";
            case DeviceTypeCodes.CUDA -> "CUDA";
            case DeviceTypeCodes.CUDA_HOST -> "CUDA_HOST";
            case DeviceTypeCodes.OPENCL -> "OPENCL";
            case DeviceTypeCodes.VULKAN -> "VULKAN";
            case DeviceTypeCodes.METAL -> "METAL";
            case DeviceTypeCodes.VPI -> "VPI";
            case DeviceTypeCodes.ROCM -> "ROCM";
            case DeviceTypeCodes.ROCM_HOST -> "ROCM_HOST";
            case DeviceTypeCodes.EXT_DEV -> "EXT_DEV";
            case DeviceTypeCodes.CUDA_MANAGED -> "CUDA_MANAGED";
            case DeviceTypeCodes.ONEAPI -> "ONEAPI";
            case DeviceTypeCodes.WEBGPU -> "WEBGPU";
            case DeviceTypeCodes.HEXAGON -> "HEXAGON";
            default -> "type " + backend.deviceType();
        };
        return type + ":" + backend.deviceId();
    }
}
