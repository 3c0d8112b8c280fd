package dev.quiver.device.opencl;

import dev.quiver.spi.ProbeResult;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** The first device the provider finds on this machine's OpenCL driver; fails the test if there is none. */
final class OpenClTestDevices {
    private OpenClTestDevices() {}

    static OpenClDevice first() {
        ProbeResult result = new OpenClProvider().probe();
        return (OpenClDevice) assertInstanceOf(ProbeResult.Available.class, result,
                "an OpenCL device is needed (PoCL in CI): " + result).devices().getFirst();
    }

    static OpenCl library() {
        return OpenClSystem.library();
    }
}
