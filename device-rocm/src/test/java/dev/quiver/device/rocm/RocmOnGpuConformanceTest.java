package dev.quiver.device.rocm;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;

/**
 * The ROCm backend against the conformance suite on the real HIP runtime and an AMD GPU. Runs only through
 * {@code scripts/gpu-smoke} (Maven profile {@code gpu-smoke}) on a machine with an AMD GPU; the regular build
 * runs the same suite on the test double instead ({@link RocmOnTestDoubleConformanceTest}).
 */
class RocmOnGpuConformanceTest extends DeviceProviderConformance {
    @Override
    protected DeviceProvider provider() {
        return new RocmProvider();
    }
}
