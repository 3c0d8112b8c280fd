package dev.quiver.device.opencl;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;

/**
 * Serves {@code ARROW_DEVICE_OPENCL} with every device of every platform the OpenCL ICD loader
 * ({@code libOpenCL.so.1}) finds, each with its own context and in-order queue. The probe runs once per
 * process, whatever the number of provider instances, and its devices live as long as the process.
 * Construction does nothing native. Thread-safe.
 */
public final class OpenClProvider implements DeviceProvider {

    /** Does nothing native. */
    public OpenClProvider() {}

    /** @return {@code "opencl"} */
    @Override
    public String name() {
        return "opencl";
    }

    /** @return what to install or set where this backend is unavailable */
    @Override
    public String setupHint() {
        return "install an OpenCL ICD loader (ocl-icd-libopencl1) and a driver, such as pocl-opencl-icd or a GPU vendor's ICD";
    }

    @Override
    public int[] deviceTypes() {
        return new int[] {DeviceTypeCodes.OPENCL};
    }

    /**
     * Loads the ICD loader and opens every device, on the first call in the process; later calls return the
     * same result. Reasons name what is missing: "libOpenCL.so.1 not found", "no OpenCL platform (ICD loader
     * found no driver ...)", "no device on platform X", or the OpenCL error that made a device unusable.
     */
    @Override
    public ProbeResult probe() {
        return OpenClSystem.probe();
    }
}
