package dev.quiver.device.cuda;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;

/**
 * The CUDA backend against the conformance suite on the real NVIDIA driver and GPU. Runs only through
 * {@code scripts/gpu-smoke} (Maven profile {@code gpu-smoke}) on a machine with an NVIDIA GPU; the regular
 * build runs the same suite on the test double instead ({@link CudaOnTestDoubleConformanceTest}).
 */
class CudaOnGpuConformanceTest extends DeviceProviderConformance {
    @Override
    protected DeviceProvider provider() {
        return new CudaProvider();
    }
}
