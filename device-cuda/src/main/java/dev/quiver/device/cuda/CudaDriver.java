package dev.quiver.device.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import static dev.quiver.device.cuda.CudaConstants.CUDA_ERROR_NO_DEVICE;
import static dev.quiver.device.cuda.CudaConstants.CUDA_SUCCESS;
import static dev.quiver.device.cuda.CudaConstants.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR;
import static dev.quiver.device.cuda.CudaConstants.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR;
import static dev.quiver.device.cuda.CudaConstants.CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY;
import static dev.quiver.device.cuda.CudaConstants.CU_GET_PROC_ADDRESS_LEGACY_STREAM;
import static dev.quiver.device.cuda.CudaConstants.CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One loaded CUDA driver library and its entry points, resolved through {@code cuGetProcAddress_v2} at
 * {@link #TARGET_VERSION} with the legacy default stream. Loaded at most once per library name or path and
 * kept for the life of the process (as are the primary contexts it retains). Thread-safe: the driver API
 * may be called from any thread; every call that needs a context runs inside {@link CudaContext#call}.
 */
final class CudaDriver {
    /** The CUDA version whose ABI variants the bindings use: 12.0, the first with {@code cuGetProcAddress_v2}. */
    static final int TARGET_VERSION = 12000;

    private static final ConcurrentHashMap<String, CudaDriver> OPEN = new ConcurrentHashMap<>();

    private final String library;
    private final MethodHandle[] handles;
    private final int version;
    private volatile List<CudaDevice> devices;

    private CudaDriver(String library, MethodHandle[] handles, int version) {
        this.library = library;
        this.handles = handles;
        this.version = version;
    }

    /**
     * Loads and initialises the driver, or says why it cannot be used.
     *
     * @param library a library name for the dynamic linker's search ({@code libcuda.so.1}) or a path
     */
    static CudaDriver open(String library) throws CudaUnavailableException {
        CudaDriver driver = OPEN.get(library);
        if (driver != null) {
            return driver;
        }
        synchronized (OPEN) {
            driver = OPEN.get(library);
            if (driver == null) {
                driver = connect(library);
                OPEN.put(library, driver);
            }
            return driver;
        }
    }

    private static CudaDriver connect(String library) throws CudaUnavailableException {
        SymbolLookup lookup = load(library);
        MemorySegment getProcAddress = lookup.find(CudaFunction.cuGetProcAddress.symbol()).orElseThrow(() ->
                new CudaUnavailableException("CUDA driver too old: " + library + " has no "
                        + CudaFunction.cuGetProcAddress.symbol() + " (a CUDA 12.0 or newer driver is needed)"));
        Linker linker = Linker.nativeLinker();
        MethodHandle[] handles = new MethodHandle[CudaFunction.values().length];
        handles[CudaFunction.cuGetProcAddress.ordinal()] = linker.downcallHandle(getProcAddress, CudaFunction.cuGetProcAddress.descriptor());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pfn = arena.allocate(ADDRESS);
            MemorySegment status = arena.allocate(JAVA_INT);
            for (CudaFunction function : CudaFunction.values()) {
                if (function == CudaFunction.cuGetProcAddress) {
                    continue;
                }
                MemorySegment name = arena.allocateFrom(function.name());
                int result = invoke(handles[CudaFunction.cuGetProcAddress.ordinal()], h -> (int) h.invokeExact(name, pfn,
                        TARGET_VERSION, CU_GET_PROC_ADDRESS_LEGACY_STREAM, status));
                MemorySegment address = pfn.get(ADDRESS, 0);
                if (result != CUDA_SUCCESS || address.equals(MemorySegment.NULL)) {
                    throw new CudaUnavailableException(status.get(JAVA_INT, 0) == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                            ? "CUDA driver too old: it has no " + function.name() + " for CUDA " + version(TARGET_VERSION)
                            : "CUDA driver incomplete: cuGetProcAddress found no " + function.name() + " (CUresult " + result
                              + ", symbol status " + status.get(JAVA_INT, 0) + ")");
                }
                handles[function.ordinal()] = linker.downcallHandle(address, function.descriptor());
            }
        }
        CudaDriver driver = new CudaDriver(library, handles, 0);
        int init = driver.result(CudaFunction.cuInit, h -> (int) h.invokeExact(0));
        if (init != CUDA_SUCCESS) {
            String error = driver.describe(init);
            throw new CudaUnavailableException(init == CUDA_ERROR_NO_DEVICE ? "no CUDA device: cuInit returned " + error
                    : "CUDA driver failed to initialise: cuInit returned " + error);
        }
        int version = driver.intOut(CudaFunction.cuDriverGetVersion);
        if (version < TARGET_VERSION) {
            throw new CudaUnavailableException("CUDA driver too old: version " + version(version) + ", needs " + version(TARGET_VERSION));
        }
        return new CudaDriver(library, handles, version);
    }

    private static SymbolLookup load(String library) throws CudaUnavailableException {
        boolean isPath = library.contains("/");
        if (isPath && !Files.exists(Path.of(library))) {
            throw new CudaUnavailableException("CUDA driver not installed (" + library + " not found)");
        }
        try {
            return isPath ? SymbolLookup.libraryLookup(Path.of(library), Arena.global()) : SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new CudaUnavailableException(isPath ? "CUDA driver cannot be loaded (" + library + ": " + e.getMessage() + ")"
                    : "CUDA driver not installed (" + library + " not found)");
        }
    }

    static String version(int version) {
        return version / 1000 + "." + version % 1000 / 10;
    }

    /** @return the library this driver was loaded from */
    String library() {
        return library;
    }

    /** @return the driver's CUDA version, for example 12040 */
    int version() {
        return version;
    }

    /**
     * Enumerates the devices once, retaining each device's primary context, and returns the same devices on
     * every later call: one {@link CudaMemory} view of each context (managed only where supported).
     */
    List<CudaDevice> devices() throws CudaUnavailableException {
        List<CudaDevice> result = devices;
        if (result == null) {
            synchronized (this) {
                result = devices;
                if (result == null) {
                    result = enumerate();
                    devices = result;
                }
            }
        }
        return result;
    }

    private List<CudaDevice> enumerate() throws CudaUnavailableException {
        int count = intOut(CudaFunction.cuDeviceGetCount);
        if (count == 0) {
            throw new CudaUnavailableException("no CUDA device: cuDeviceGetCount found none");
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
        String name = deviceName(device);
        long totalMemory = longOut(CudaFunction.cuDeviceTotalMem, device);
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

    private CudaContext primaryContext(int ordinal) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment device = arena.allocate(JAVA_INT);
            check(CudaFunction.cuDeviceGet, h -> (int) h.invokeExact(device, ordinal));
            int handle = device.get(JAVA_INT, 0);
            MemorySegment context = arena.allocate(ADDRESS);
            check(CudaFunction.cuDevicePrimaryCtxRetain, h -> (int) h.invokeExact(context, handle));
            return new CudaContext(this, context.get(ADDRESS, 0), handle, ordinal, true);
        }
    }

    private String deviceName(int device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocate(256);
            check(CudaFunction.cuDeviceGetName, h -> (int) h.invokeExact(name, 256, device));
            return name.getString(0);
        }
    }

    int attribute(int attribute, int device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(JAVA_INT);
            check(CudaFunction.cuDeviceGetAttribute, h -> (int) h.invokeExact(value, attribute, device));
            return value.get(JAVA_INT, 0);
        }
    }

    // ---- calling ---------------------------------------------------------------------------------

    /** One downcall through a bound handle, written as {@code h -> (int) h.invokeExact(...)}. */
    @FunctionalInterface
    interface Call {
        int invoke(MethodHandle handle) throws Throwable;
    }

    private static int invoke(MethodHandle handle, Call call) {
        try {
            return call.invoke(handle);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** @return the {@code CUresult} of the call */
    int result(CudaFunction function, Call call) {
        return invoke(handles[function.ordinal()], call);
    }

    /** Makes the call and throws {@link CudaException} unless it returns {@code CUDA_SUCCESS}. */
    void check(CudaFunction function, Call call) {
        int result = result(function, call);
        if (result != CUDA_SUCCESS) {
            throw failure(function, result);
        }
    }

    CudaException failure(CudaFunction function, int result) {
        return new CudaException(function.name(), result, errorText(CudaFunction.cuGetErrorName, result), errorText(CudaFunction.cuGetErrorString, result));
    }

    /** @return {@code "NAME (description)"} of a {@code CUresult} */
    String describe(int result) {
        String name = errorText(CudaFunction.cuGetErrorName, result);
        String description = errorText(CudaFunction.cuGetErrorString, result);
        return description.isEmpty() || description.equals(name) ? name : name + " (" + description + ")";
    }

    private String errorText(CudaFunction function, int result) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = arena.allocate(ADDRESS);
            int status = result(function, h -> (int) h.invokeExact(result, text));
            MemorySegment string = text.get(ADDRESS, 0);
            if (status != CUDA_SUCCESS || string.equals(MemorySegment.NULL)) {
                return function == CudaFunction.cuGetErrorName ? "CUresult " + result : "";
            }
            return string.reinterpret(Long.MAX_VALUE).getString(0);
        }
    }

    /** Calls {@code f(int *out)} and returns {@code *out}. */
    int intOut(CudaFunction function) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            check(function, h -> (int) h.invokeExact(out));
            return out.get(JAVA_INT, 0);
        }
    }

    /** Calls {@code f(size_t *out, CUdevice)} and returns {@code *out}. */
    private long longOut(CudaFunction function, int device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            check(function, h -> (int) h.invokeExact(out, device));
            return out.get(JAVA_LONG, 0);
        }
    }

    /** Calls {@code f(T *out, ...)} for a pointer-sized handle {@code T} and returns {@code *out}. */
    MemorySegment handleOut(CudaFunction function, HandleCall call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            check(function, h -> call.invoke(h, out));
            return out.get(ADDRESS, 0);
        }
    }

    /** A downcall that writes a handle or pointer into {@code out}. */
    @FunctionalInterface
    interface HandleCall {
        int invoke(MethodHandle handle, MemorySegment out) throws Throwable;
    }
}
