package com.example.columns;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;

/**
 * The devices the tests run on. OpenCL (PoCL on a machine without a GPU) and Vulkan (lavapipe) must be there:
 * their absence fails a test.
 */
final class TestDevices {
    private TestDevices() {
    }

    /** @return the CPU device */
    static Device cpu() {
        return Devices.system().cpu();
    }

    /**
     * @return the best OpenCL device
     * @throws AssertionError naming why if there is none
     */
    static Device openCl() {
        return first(DeviceType.OPENCL, "an OpenCL driver such as pocl-opencl-icd");
    }

    /**
     * @return the best Vulkan device, one this library has no kernels for
     * @throws AssertionError naming why if there is none
     */
    static Device vulkan() {
        return first(DeviceType.VULKAN, "a Vulkan driver such as mesa-vulkan-drivers and vulkan-validationlayers");
    }

    private static Device first(DeviceType type, String install) {
        return Devices.system().best(device -> device.type().equals(type))
                .orElseThrow(() -> new AssertionError("no " + type + " device: install " + install
                        + "; backends report " + Devices.system().report()));
    }
}
