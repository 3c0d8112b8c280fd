package dev.quiver.share;

import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.device.cuda.CudaProvider;
import dev.quiver.plugin.Backends;
import dev.quiver.testkit.TestDoubleLibrary;

import java.nio.file.Path;
import java.util.List;

/**
 * The CUDA backend on the test double of the CUDA driver ({@code fake_libcuda.c} of quiver-device-cuda's tests,
 * compiled against the CUDA toolkit headers into a {@code libcuda.so.1}), whose device memory lives in memory
 * files that another process maps from a {@code CUipcMemHandle}. Both processes of a test load the same library
 * file. It proves the sharing code's paths, never anything about NVIDIA hardware. Stateless.
 */
final class CudaTestDoubleDevices {
    /** Where the CUDA toolkit headers are (system property {@code quiver.cuda.include}). */
    private static final String INCLUDE = System.getProperty("quiver.cuda.include", "/usr/local/cuda/include");

    private CudaTestDoubleDevices() {}

    /** {@return the test double, compiled once per process} */
    static TestDoubleLibrary library() {
        return TestDoubleLibrary.build(CudaProvider.class, List.of("fake_libcuda.c"), CudaProvider.DEFAULT_LIBRARY,
                List.of("-I" + INCLUDE));
    }

    /** {@return devices over the CUDA backend loading {@code library}} */
    static Devices devices(Path library) {
        return Backends.devices(List.of(new CudaProvider(library)), BackendSelection.all());
    }

    /** {@return CUDA device 0 of {@code devices}} */
    static Device cuda(Devices devices) {
        return devices.get(DeviceType.CUDA, 0);
    }
}
