package dev.quiver.device.cpu;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;

/** The CPU backend against the conformance suite. */
class CpuConformanceTest extends DeviceProviderConformance {
    @Override
    protected DeviceProvider provider() {
        return new CpuProvider();
    }
}
