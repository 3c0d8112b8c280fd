package dev.quiver.device.opencl;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;

/**
 * The OpenCL backend against the conformance suite, on the OpenCL driver this machine has (PoCL in CI).
 * The suite fails, never skips, when no OpenCL device is usable.
 */
class OpenClConformanceTest extends DeviceProviderConformance {
    @Override
    protected DeviceProvider provider() {
        return new OpenClProvider();
    }
}
