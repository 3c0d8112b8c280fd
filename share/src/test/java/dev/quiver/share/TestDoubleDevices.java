package dev.quiver.share;

import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.device.cuda.CudaProvider;
import dev.quiver.device.oneapi.OneApiMemory;
import dev.quiver.device.oneapi.OneApiProvider;
import dev.quiver.device.rocm.RocmProvider;
import dev.quiver.plugin.Backends;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.testkit.TestDoubleLibrary;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Backends on the test doubles of their vendor libraries (C fakes of the tests of quiver-device-cuda,
 * quiver-device-rocm and quiver-device-oneapi, compiled into a {@code libcuda.so.1}, {@code libamdhip64.so.5} or
 * {@code libze_loader.so.1}), whose device memory lives in memory
 * files that another process maps from an IPC handle. Both processes of a test load the same library file, each
 * with one set of devices over it. They prove the sharing code's paths, never anything about GPU hardware.
 * Thread-safe.
 */
enum TestDoubleDevices {
    /** The CUDA backend on {@code fake_libcuda.c}, compiled against the CUDA toolkit headers. */
    CUDA(new Spec(DeviceType.CUDA, HandleKind.CUDA_IPC, "cuIpcOpenMemHandle",
            () -> TestDoubleLibrary.build(CudaProvider.class, List.of("fake_libcuda.c"), CudaProvider.DEFAULT_LIBRARY,
                    List.of("-I" + System.getProperty("quiver.cuda.include", "/usr/local/cuda/include"))),
            CudaProvider::new)),
    /** The ROCm backend on {@code fake_libamdhip64.c}, compiled against the HIP headers. */
    HIP(new Spec(DeviceType.ROCM, HandleKind.HIP_IPC, "hipIpcOpenMemHandle",
            () -> TestDoubleLibrary.build(RocmProvider.class, List.of("fake_libamdhip64.c"), "libamdhip64.so.5",
                    List.of("-D__HIP_PLATFORM_AMD__")),
            RocmProvider::new)),
    /** The oneAPI backend on {@code fake_libze_loader.c}, compiled against the Level Zero headers, allocating device memory. */
    LEVEL_ZERO(new Spec(DeviceType.ONEAPI, HandleKind.LEVEL_ZERO_IPC, "zeMemOpenIpcHandle",
            () -> TestDoubleLibrary.build(OneApiProvider.class, List.of("fake_libze_loader.c"), "libze_loader.so.1", List.of()),
            library -> new OneApiProvider(library, OneApiMemory.DEVICE)));

    private static final Map<TestDoubleDevices, Devices> DEVICES = new ConcurrentHashMap<>();

    /**
     * What one backend's test double is.
     *
     * @param type     the backend's device type
     * @param kind     the handle kind of its inter-process mechanism
     * @param openCall the driver call that opens a handle
     * @param library  compiles the test double
     * @param provider the backend's provider over a library file
     */
    private record Spec(DeviceType type, HandleKind kind, String openCall, Supplier<TestDoubleLibrary> library,
                        Function<Path, DeviceProvider> provider) {}

    private final Spec spec;

    TestDoubleDevices(Spec spec) {
        this.spec = spec;
    }

    /** {@return the test double's library file, compiled once per process} */
    Path library() {
        return spec.library().get().path();
    }

    /** {@return the handle kind of the backend's inter-process mechanism} */
    HandleKind kind() {
        return spec.kind();
    }

    /** {@return the driver call that opens a handle, which a refusal names} */
    String openCall() {
        return spec.openCall();
    }

    /** {@return this process's devices over the backend loading {@code library}: one set per process} */
    Devices devices(Path library) {
        return DEVICES.computeIfAbsent(this, backend -> Backends.devices(List.of(spec.provider().apply(library)), BackendSelection.all()));
    }

    /** {@return device 0 of the backend, in {@link #devices}} */
    Device device(Path library) {
        return devices(library).get(spec.type(), 0);
    }
}
