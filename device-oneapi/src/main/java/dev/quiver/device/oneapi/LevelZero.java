package dev.quiver.device.oneapi;

import dev.quiver.spi.DriverStartLock;
import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.Once;
import dev.quiver.device.ffm.VendorLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static dev.quiver.device.oneapi.ZeConstants.ZE_STRUCTURE_TYPE_CONTEXT_DESC;
import static dev.quiver.device.oneapi.ZeConstants.ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
import static dev.quiver.device.oneapi.ZeConstants.ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The Level Zero loader, initialised, with its drivers and devices: one context per driver and one
 * {@link ZeDevice} per device, made once per library and kept for the life of the process. Thread-safe.
 */
final class LevelZero {
    /** The loader's soname. */
    static final String LIBRARY = "libze_loader.so.1";

    private static final ConcurrentHashMap<String, Once<LevelZero>> OPEN = new ConcurrentHashMap<>();
    private static final int SUCCESS = ZeResult.ZE_RESULT_SUCCESS.value();

    /** The bound entry points. */
    final Bindings<ZeFunction> api;
    private final List<ZeDevice> devices;
    private final dev.quiver.spi.LoadedLibrary library;
    private final Map<OneApiMemory, List<OneApiDevice>> views = new ConcurrentHashMap<>();

    private LevelZero(Bindings<ZeFunction> api, List<ZeDevice> devices, dev.quiver.spi.LoadedLibrary library) {
        this.api = api;
        this.devices = devices;
        this.library = library;
    }

    /**
     * Loads the loader, initialises Level Zero and enumerates, or says why it cannot be used.
     *
     * @param library a name for the dynamic linker's search or a path
     */
    static LevelZero open(String library) throws BackendUnavailableException {
        return OPEN.computeIfAbsent(library, key -> new Once<>()).get(() -> connect(library));
    }

    /** @return every device of every driver, in driver order, serving {@code memory}; the same objects every call */
    List<OneApiDevice> devices(OneApiMemory memory) {
        return views.computeIfAbsent(memory, kind -> devices.stream().map(device -> new OneApiDevice(device, kind, library)).toList());
    }

    private static LevelZero connect(String library) throws BackendUnavailableException {
        VendorLibrary loaded = VendorLibrary.loadFirst("Level Zero loader", List.of(library));
        Bindings<ZeFunction> api = new Bindings<>(loaded.bindAll("Level Zero loader", ZeFunction.class), SUCCESS, (calls, function, result) -> new OneApiException(function.name(), result));
        // the loader loads the drivers' libraries in zeInit
        int init = DriverStartLock.loading(() -> api.result(ZeFunction.zeInit, h -> (int) h.invokeExact(0)));
        if (init != SUCCESS) {
            throw new BackendUnavailableException("no Level Zero driver: zeInit returned " + ZeResult.name(init));
        }
        List<MemorySegment> drivers = handles(api, ZeFunction.zeDriverGet, MemorySegment.NULL);
        if (drivers.isEmpty()) {
            throw new BackendUnavailableException("no Level Zero driver: zeDriverGet found none");
        }
        List<ZeDevice> devices = new ArrayList<>();
        for (MemorySegment driver : drivers) {
            List<MemorySegment> found = handles(api, ZeFunction.zeDeviceGet, driver);
            if (found.isEmpty()) {
                continue;   // a context only for a driver with devices: nothing would ever use (or destroy) it
            }
            MemorySegment context;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment desc = ZeStructs.zeroed(arena, ZeStructs.CONTEXT_DESC, ZE_STRUCTURE_TYPE_CONTEXT_DESC);
                context = api.handleOut(ZeFunction.zeContextCreate, (h, out) -> (int) h.invokeExact(driver, desc, out));
            }
            for (MemorySegment device : found) {
                devices.add(describe(api, driver, context, device, devices.size()));
            }
        }
        if (devices.isEmpty()) {
            throw new BackendUnavailableException("no Level Zero device: zeDeviceGet found none on " + drivers.size() + " driver(s)");
        }
        return new LevelZero(api, List.copyOf(devices), loaded.loaded("zeInit"));
    }

    /** Calls a Level Zero enumeration ({@code count}, then the handles) and returns the handles. */
    private static List<MemorySegment> handles(Bindings<ZeFunction> api, ZeFunction function, MemorySegment parent) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            enumerate(api, function, parent, count, MemorySegment.NULL);
            int n = count.get(JAVA_INT, 0);
            MemorySegment array = arena.allocate(ADDRESS, Math.max(n, 1));
            enumerate(api, function, parent, count, array);
            List<MemorySegment> result = new ArrayList<>();
            for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
                result.add(array.getAtIndex(ADDRESS, i));
            }
            return result;
        }
    }

    private static void enumerate(Bindings<ZeFunction> api, ZeFunction function, MemorySegment parent, MemorySegment count, MemorySegment out) {
        if (function == ZeFunction.zeDriverGet) {
            api.check(function, h -> (int) h.invokeExact(count, out));
        } else {
            api.check(function, h -> (int) h.invokeExact(parent, count, out));
        }
    }

    private static ZeDevice describe(Bindings<ZeFunction> api, MemorySegment driver, MemorySegment context, MemorySegment device, int id) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment properties = ZeStructs.zeroed(arena, ZeStructs.DEVICE_PROPERTIES, ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);
            api.check(ZeFunction.zeDeviceGetProperties, h -> (int) h.invokeExact(device, properties));
            String name = properties.getString(ZeStructs.offset(ZeStructs.DEVICE_PROPERTIES, "name"));
            int type = properties.get(JAVA_INT, ZeStructs.offset(ZeStructs.DEVICE_PROPERTIES, "type"));
            long maxAllocation = properties.get(JAVA_LONG, ZeStructs.offset(ZeStructs.DEVICE_PROPERTIES, "maxMemAllocSize"));
            MemorySegment count = arena.allocate(JAVA_INT);
            api.check(ZeFunction.zeDeviceGetMemoryProperties, h -> (int) h.invokeExact(device, count, MemorySegment.NULL));
            int memories = count.get(JAVA_INT, 0);
            long stride = ZeStructs.DEVICE_MEMORY_PROPERTIES.byteSize();
            MemorySegment memory = arena.allocate(ZeStructs.DEVICE_MEMORY_PROPERTIES, Math.max(memories, 1));
            memory.fill((byte) 0);
            for (int i = 0; i < memories; i++) {
                memory.set(JAVA_INT, i * stride, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES);
            }
            api.check(ZeFunction.zeDeviceGetMemoryProperties, h -> (int) h.invokeExact(device, count, memory));
            long total = 0;
            for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
                total += memory.get(JAVA_LONG, i * stride + ZeStructs.offset(ZeStructs.DEVICE_MEMORY_PROPERTIES, "totalSize"));
            }
            return new ZeDevice(api, driver, context, device, id, name, typeName(type), total, maxAllocation);
        }
    }

    private static String typeName(int type) {
        return switch (type) {
            case ZeConstants.ZE_DEVICE_TYPE_GPU -> "GPU";
            case ZeConstants.ZE_DEVICE_TYPE_CPU -> "CPU";
            case ZeConstants.ZE_DEVICE_TYPE_FPGA -> "FPGA";
            case ZeConstants.ZE_DEVICE_TYPE_MCA -> "MCA";
            case ZeConstants.ZE_DEVICE_TYPE_VPU -> "VPU";
            default -> "type " + type;
        };
    }
}
