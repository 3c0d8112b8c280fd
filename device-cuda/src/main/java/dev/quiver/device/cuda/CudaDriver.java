package dev.quiver.device.cuda;

import dev.quiver.spi.DriverStartLock;
import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.Downcalls;
import dev.quiver.device.ffm.Once;
import dev.quiver.device.ffm.StreamEventCalls;
import dev.quiver.device.ffm.VendorLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import static dev.quiver.device.cuda.CudaConstants.CUDA_ERROR_NOT_READY;
import static dev.quiver.device.cuda.CudaConstants.CUDA_ERROR_NO_DEVICE;
import static dev.quiver.device.cuda.CudaConstants.CUDA_SUCCESS;
import static dev.quiver.device.cuda.CudaConstants.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR;
import static dev.quiver.device.cuda.CudaConstants.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR;
import static dev.quiver.device.cuda.CudaConstants.CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY;
import static dev.quiver.device.cuda.CudaConstants.CU_EVENT_DISABLE_TIMING;
import static dev.quiver.device.cuda.CudaConstants.CU_GET_PROC_ADDRESS_LEGACY_STREAM;
import static dev.quiver.device.cuda.CudaConstants.CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
import static dev.quiver.device.cuda.CudaConstants.CU_STREAM_DEFAULT;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * One loaded CUDA driver library and its entry points, resolved through {@code cuGetProcAddress_v2} at
 * {@link #TARGET_VERSION} with the legacy default stream ({@code cuGetProcAddress_v2} may be called before
 * {@code cuInit}). Loaded at most once per library name or path and kept for the life of the process (as
 * are the primary contexts it retains). Thread-safe: the driver API may be called from any thread; every
 * call that needs a context runs inside {@link CudaContext#call}.
 */
final class CudaDriver {
    /** The CUDA version whose ABI variants the bindings use: 12.0, the first with {@code cuGetProcAddress_v2}. */
    static final int TARGET_VERSION = 12000;

    private static final ConcurrentHashMap<String, Once<CudaDriver>> OPEN = new ConcurrentHashMap<>();

    /** The bound entry points. */
    final Bindings<CudaFunction> api;
    /** The stream and event calls, with the flags of this backend's streams and events. */
    final StreamEventCalls<CudaFunction> calls;
    private final int version;
    private final dev.quiver.spi.LoadedLibrary library;
    private final Once<List<CudaDevice>> devices = new Once<>();

    private CudaDriver(Bindings<CudaFunction> api, int version, dev.quiver.spi.LoadedLibrary library) {
        this.api = api;
        this.calls = new StreamEventCalls<>(api, CudaFunction.cuStreamCreate, CU_STREAM_DEFAULT, CudaFunction.cuStreamSynchronize,
                CudaFunction.cuStreamDestroy, CudaFunction.cuStreamWaitEvent, CudaFunction.cuEventCreate, CU_EVENT_DISABLE_TIMING,
                CudaFunction.cuEventRecord, CudaFunction.cuEventSynchronize, CudaFunction.cuEventQuery, CudaFunction.cuEventDestroy,
                CUDA_ERROR_NOT_READY);
        this.version = version;
        this.library = library;
    }

    /** @return the driver library as devices report it */
    dev.quiver.spi.LoadedLibrary library() {
        return library;
    }

    /**
     * Loads and initialises the driver, or says why it cannot be used.
     *
     * @param library a library name for the dynamic linker's search ({@code libcuda.so.1}) or a path
     */
    static CudaDriver open(String library) throws BackendUnavailableException {
        return OPEN.computeIfAbsent(library, key -> new Once<>()).get(() -> connect(library));
    }

    private static CudaDriver connect(String library) throws BackendUnavailableException {
        VendorLibrary loaded = VendorLibrary.loadFirst("CUDA driver", List.of(library));
        MemorySegment getProcAddress = loaded.lookup().find(CudaFunction.cuGetProcAddress.c().symbol()).orElseThrow(() ->
                new BackendUnavailableException("CUDA driver too old: " + library + " has no "
                        + CudaFunction.cuGetProcAddress.c().symbol() + " (a CUDA 12.0 or newer driver is needed)"));
        MethodHandle lookup = Linker.nativeLinker().downcallHandle(getProcAddress, CudaFunction.cuGetProcAddress.c().descriptor());
        CudaFunction[] functions = CudaFunction.values();
        MemorySegment[] addresses = new MemorySegment[functions.length];
        FunctionDescriptor[] descriptors = new FunctionDescriptor[functions.length];
        addresses[CudaFunction.cuGetProcAddress.ordinal()] = getProcAddress;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pfn = arena.allocate(ADDRESS);
            MemorySegment status = arena.allocate(JAVA_INT);
            for (CudaFunction function : functions) {
                descriptors[function.ordinal()] = function.c().descriptor();
                if (function == CudaFunction.cuGetProcAddress) {
                    continue;
                }
                MemorySegment name = arena.allocateFrom(function.name());
                int result = Bindings.invoke(lookup, h -> (int) h.invokeExact(name, pfn, TARGET_VERSION,
                        CU_GET_PROC_ADDRESS_LEGACY_STREAM, status));
                MemorySegment address = pfn.get(ADDRESS, 0);
                if (result != CUDA_SUCCESS || address.equals(MemorySegment.NULL)) {
                    throw new BackendUnavailableException(status.get(JAVA_INT, 0) == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                            ? "CUDA driver too old: it has no " + function.name() + " for CUDA " + version(TARGET_VERSION)
                            : "CUDA driver incomplete: cuGetProcAddress found no " + function.name() + " (CUresult " + result
                              + ", symbol status " + status.get(JAVA_INT, 0) + ")");
                }
                addresses[function.ordinal()] = address;
            }
        }
        Bindings<CudaFunction> api = new Bindings<>(Downcalls.of(addresses, descriptors), CUDA_SUCCESS, (calls, function, result) ->
                new CudaException(function.name(), result, errorText(calls, CudaFunction.cuGetErrorName, result),
                        errorText(calls, CudaFunction.cuGetErrorString, result)));
        // the driver loads its libraries in cuInit
        int init = DriverStartLock.loading(() -> api.result(CudaFunction.cuInit, h -> (int) h.invokeExact(0)));
        if (init != CUDA_SUCCESS) {
            String error = describe(api, init);
            throw new BackendUnavailableException(init == CUDA_ERROR_NO_DEVICE ? "no CUDA device: cuInit returned " + error
                    : "CUDA driver failed to initialise: cuInit returned " + error);
        }
        int version = api.intOut(CudaFunction.cuDriverGetVersion);
        if (version < TARGET_VERSION) {
            throw new BackendUnavailableException("CUDA driver too old: version " + version(version) + ", needs " + version(TARGET_VERSION));
        }
        return new CudaDriver(api, version, loaded.loaded(CudaFunction.cuGetProcAddress.c().symbol()));
    }

    static String version(int version) {
        return version / 1000 + "." + version % 1000 / 10;
    }

    /** @return {@code "NAME (description)"} of a {@code CUresult} */
    private static String describe(Bindings<CudaFunction> api, int result) {
        String name = errorText(api, CudaFunction.cuGetErrorName, result);
        String description = errorText(api, CudaFunction.cuGetErrorString, result);
        return description.isEmpty() || description.equals(name) ? name : name + " (" + description + ")";
    }

    private static String errorText(Bindings<CudaFunction> api, CudaFunction function, int result) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = arena.allocate(ADDRESS);
            int status = api.result(function, h -> (int) h.invokeExact(result, text));
            MemorySegment string = text.get(ADDRESS, 0);
            if (status != CUDA_SUCCESS || string.equals(MemorySegment.NULL)) {
                return function == CudaFunction.cuGetErrorName ? "CUresult " + result : "";
            }
            return string.reinterpret(Long.MAX_VALUE).getString(0);
        }
    }

    /** @return the driver's CUDA version, for example 12040 */
    int version() {
        return version;
    }

    /**
     * Enumerates the devices once, retaining each device's primary context, and returns the same devices on
     * every later call: one {@link CudaMemory} view of each context (managed only where supported).
     */
    List<CudaDevice> devices() throws BackendUnavailableException {
        return devices.get(this::enumerate);
    }

    private List<CudaDevice> enumerate() throws BackendUnavailableException {
        int count = api.intOut(CudaFunction.cuDeviceGetCount);
        if (count == 0) {
            throw new BackendUnavailableException("no CUDA device: cuDeviceGetCount found none");
        }
        List<CudaDevice> found = new ArrayList<>();
        for (int ordinal = 0; ordinal < count; ordinal++) {
            found.addAll(devicesOf(primaryContext(ordinal)));
        }
        return List.copyOf(found);
    }

    /** @return the memory views of one context's device */
    List<CudaDevice> devicesOf(CudaContext context) {
        int device = context.device();
        String name = api.stringOut(CudaFunction.cuDeviceGetName, 256, (h, out) -> (int) h.invokeExact(out, 256, device));
        long totalMemory = api.longOut(CudaFunction.cuDeviceTotalMem, (h, out) -> (int) h.invokeExact(out, device));
        String capability = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) + "."
                + attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
        List<CudaDevice> views = new ArrayList<>();
        for (CudaMemory memory : CudaMemory.values()) {
            if (memory != CudaMemory.MANAGED || attribute(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, device) != 0) {
                views.add(new CudaDevice(this, context, memory, name, totalMemory, capability));
            }
        }
        return views;
    }

    /** @return the {@code CUdevice} handle of a device ordinal */
    int deviceHandle(int ordinal) {
        return api.intOut(CudaFunction.cuDeviceGet, (h, out) -> (int) h.invokeExact(out, ordinal));
    }

    private CudaContext primaryContext(int ordinal) {
        int device = deviceHandle(ordinal);
        MemorySegment context = api.handleOut(CudaFunction.cuDevicePrimaryCtxRetain, (h, out) -> (int) h.invokeExact(out, device));
        return new CudaContext(this, context, device, ordinal, true);
    }

    /**
     * @param attribute a {@code CUdevice_attribute}
     * @param device    a {@code CUdevice}
     * @return its value
     * @throws CudaException if the driver does not answer it
     */
    int attribute(int attribute, int device) {
        return api.intOut(CudaFunction.cuDeviceGetAttribute, (h, out) -> (int) h.invokeExact(out, attribute, device));
    }
}
