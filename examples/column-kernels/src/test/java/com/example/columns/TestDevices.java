package com.example.columns;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;

/** The devices the tests run on. OpenCL (PoCL on this machine) must be there: its absence fails a test. */
final class TestDevices {
    private TestDevices() {
    }

    /** @return the CPU device */
    static Device cpu() {
        return Devices.system().cpu();
    }

    /**
     * @return the first OpenCL device
     * @throws AssertionError naming why if there is none
     */
    static Device openCl() {
        return Devices.system().all().stream()
                .filter(device -> device.type().equals(DeviceType.OPENCL))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no OpenCL device: install an OpenCL driver such as "
                        + "pocl-opencl-icd; backends report " + Devices.system().report()));
    }
}
