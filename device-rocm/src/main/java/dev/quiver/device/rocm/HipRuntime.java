package dev.quiver.device.rocm;

import dev.quiver.spi.DriverStartLock;
import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.Once;
import dev.quiver.device.ffm.StreamEventCalls;
import dev.quiver.device.ffm.VendorLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import static dev.quiver.device.rocm.HipConstants.hipErrorNoDevice;
import static dev.quiver.device.rocm.HipConstants.hipErrorNotReady;
import static dev.quiver.device.rocm.HipConstants.hipEventDisableTiming;
import static dev.quiver.device.rocm.HipConstants.hipStreamDefault;
import static dev.quiver.device.rocm.HipConstants.hipSuccess;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * One loaded HIP runtime library and its entry points ({@link HipFunction}), bound by name. Loaded at most
 * once per list of candidate libraries and kept for the life of the process. Thread-safe.
 *
 * <p>HIP has a current device per thread. Work for a device runs inside {@link #onDevice}, which makes the
 * device current ({@code hipSetDevice}) and restores the thread's previous device afterwards.
 */
final class HipRuntime {
    /** Library names tried in order when no library is configured. */
    static final List<String> LIBRARIES = List.of("libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5");

    private static final ConcurrentHashMap<List<String>, Once<HipRuntime>> OPEN = new ConcurrentHashMap<>();

    /** The bound entry points. */
    final Bindings<HipFunction> api;
    /** The stream and event calls, with the flags of this backend's streams and events. */
    final StreamEventCalls<HipFunction> calls;
    private final int version;
    private final dev.quiver.spi.LoadedLibrary library;
    private final Once<List<RocmDevice>> devices = new Once<>();

    private HipRuntime(Bindings<HipFunction> api, int version, dev.quiver.spi.LoadedLibrary library) {
        this.api = api;
        this.calls = new StreamEventCalls<>(api, HipFunction.hipStreamCreateWithFlags, hipStreamDefault, HipFunction.hipStreamSynchronize,
                HipFunction.hipStreamDestroy, HipFunction.hipStreamWaitEvent, HipFunction.hipEventCreateWithFlags, hipEventDisableTiming,
                HipFunction.hipEventRecord, HipFunction.hipEventSynchronize, HipFunction.hipEventQuery, HipFunction.hipEventDestroy,
                hipErrorNotReady);
        this.version = version;
        this.library = library;
    }

    /**
     * Loads the runtime, or says why it cannot be used.
     *
     * @param libraries library names for the dynamic linker's search, or one path, tried in order
     */
    static HipRuntime open(List<String> libraries) throws BackendUnavailableException {
        return OPEN.computeIfAbsent(List.copyOf(libraries), key -> new Once<>()).get(() -> connect(libraries));
    }

    private static HipRuntime connect(List<String> libraries) throws BackendUnavailableException {
        VendorLibrary loaded = VendorLibrary.loadFirst("ROCm HIP runtime", libraries);
        Bindings<HipFunction> api = new Bindings<>(loaded.bindAll("ROCm HIP runtime", HipFunction.class), hipSuccess, (calls, function, error) ->
                new RocmException(function.name(), error, text(calls, HipFunction.hipGetErrorName, error),
                        text(calls, HipFunction.hipGetErrorString, error)));
        return new HipRuntime(api, api.intOut(HipFunction.hipRuntimeGetVersion), loaded.loaded("hipRuntimeGetVersion"));
    }

    /** @return the runtime library as devices report it */
    dev.quiver.spi.LoadedLibrary library() {
        return library;
    }

    /** @return {@code HIP_VERSION} of the runtime: major * 10000000 + minor * 100000 + patch */
    int version() {
        return version;
    }

    /** @return the HIP major version, which decides the pointer memory type numbering */
    int majorVersion() {
        return version / 10_000_000;
    }

    /** @return {@code major.minor} */
    String versionText() {
        return majorVersion() + "." + version / 100_000 % 100;
    }

    /** Enumerates the devices once: for each, device and pinned host memory. */
    List<RocmDevice> devices() throws BackendUnavailableException {
        return devices.get(this::enumerate);
    }

    private List<RocmDevice> enumerate() throws BackendUnavailableException {
        int count;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            // the runtime loads its libraries on its first call
            int error = DriverStartLock.loading(() -> api.result(HipFunction.hipGetDeviceCount, h -> (int) h.invokeExact(out)));
            if (error == hipErrorNoDevice) {
                throw new BackendUnavailableException("no ROCm device: " + describe(error));
            }
            if (error != hipSuccess) {
                throw new BackendUnavailableException("ROCm HIP runtime failed: hipGetDeviceCount returned " + describe(error));
            }
            count = out.get(JAVA_INT, 0);
        }
        if (count == 0) {
            throw new BackendUnavailableException("no ROCm device: hipGetDeviceCount found none");
        }
        List<RocmDevice> found = new ArrayList<>();
        for (int ordinal = 0; ordinal < count; ordinal++) {
            int at = ordinal;
            int device = api.intOut(HipFunction.hipDeviceGet, (h, out) -> (int) h.invokeExact(out, at));
            String name = api.stringOut(HipFunction.hipDeviceGetName, 256, (h, out) -> (int) h.invokeExact(out, 256, device));
            long totalMemory = api.longOut(HipFunction.hipDeviceTotalMem, (h, out) -> (int) h.invokeExact(out, device));
            for (RocmMemory memory : RocmMemory.values()) {
                found.add(new RocmDevice(this, ordinal, device, memory, name, totalMemory));
            }
        }
        return List.copyOf(found);
    }

    /** Runs {@code work} with device {@code ordinal} current on the calling thread, then restores the previous one. */
    <T> T onDevice(int ordinal, Supplier<T> work) {
        int previous = api.intOut(HipFunction.hipGetDevice);
        if (previous != ordinal) {
            api.check(HipFunction.hipSetDevice, h -> (int) h.invokeExact(ordinal));
        }
        try {
            return work.get();
        } finally {
            if (previous != ordinal) {
                api.check(HipFunction.hipSetDevice, h -> (int) h.invokeExact(previous));
            }
        }
    }

    /** Runs {@code work} with device {@code ordinal} current on the calling thread. */
    void onDevice(int ordinal, Runnable work) {
        onDevice(ordinal, () -> {
            work.run();
            return null;
        });
    }

    /** @return {@code "NAME (description)"} of a {@code hipError_t}, or the name alone where they agree */
    private String describe(int error) {
        String name = text(api, HipFunction.hipGetErrorName, error);
        String description = text(api, HipFunction.hipGetErrorString, error);
        return description.isEmpty() || description.equals(name) ? name : name + " (" + description + ")";
    }

    private static String text(Bindings<HipFunction> api, HipFunction function, int error) {
        MemorySegment string;
        try {
            string = (MemorySegment) api.handle(function).invokeExact(error);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (string.equals(MemorySegment.NULL)) {
            return function == HipFunction.hipGetErrorName ? "hipError_t " + error : "";
        }
        return string.reinterpret(Long.MAX_VALUE).getString(0);
    }
}
