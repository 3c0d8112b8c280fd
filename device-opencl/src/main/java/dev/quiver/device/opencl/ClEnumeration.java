package dev.quiver.device.opencl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Lists every device of every platform the ICD loader finds, in enumeration order (platforms in the order
 * {@code clGetPlatformIDs} returns them, devices in {@code clGetDeviceIDs} order); a device's position in
 * that order is its Arrow device id. Platforms without devices become reasons. Stateless; thread-safe.
 */
final class ClEnumeration {
    private ClEnumeration() {}

    /**
     * One device handle and the platform it belongs to.
     *
     * @param platform the {@code cl_platform_id}
     * @param device   the {@code cl_device_id}
     */
    record Handle(MemorySegment platform, MemorySegment device) {}

    /**
     * What enumeration found.
     *
     * @param devices every device, its index being its id
     * @param reasons why platforms contributed nothing, each a sentence a user can act on
     */
    record Result(List<Handle> devices, List<String> reasons) {}

    /**
     * @param cl the loaded library
     * @return the devices and the reasons some platforms have none
     * @throws OpenClException if listing platforms or devices fails for another reason than their absence
     */
    static Result enumerate(OpenCl cl) {
        List<Handle> devices = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        List<MemorySegment> platforms = platforms(cl);
        if (platforms.isEmpty()) {
            reasons.add("no OpenCL platform (ICD loader found no driver; install one, for example pocl-opencl-icd)");
        }
        for (MemorySegment platform : platforms) {
            List<MemorySegment> found = devices(cl, platform);
            if (found.isEmpty()) {
                reasons.add("no device on platform " + platformName(cl, platform));
            }
            for (MemorySegment device : found) {
                devices.add(new Handle(platform, device));
            }
        }
        return new Result(List.copyOf(devices), List.copyOf(reasons));
    }

    /** @return the platform's name, or a text saying why it has none */
    static String platformName(OpenCl cl, MemorySegment platform) {
        try {
            return ClInfo.string(cl.info(ClFunction.clGetPlatformInfo), platform, ClConstants.CL_PLATFORM_NAME, "clGetPlatformInfo(CL_PLATFORM_NAME)");
        } catch (OpenClException e) {
            return Hex.of(platform) + " (its name is unreadable: " + e.getMessage() + ")";
        }
    }

    private static List<MemorySegment> platforms(OpenCl cl) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            int code = cl.getPlatformIDs(0, MemorySegment.NULL, count);
            if (code == OpenClError.CL_PLATFORM_NOT_FOUND_KHR.code()) {
                return List.of();
            }
            OpenClException.check(code, "clGetPlatformIDs");
            int n = count.get(JAVA_INT, 0);
            if (n == 0) {
                return List.of();
            }
            MemorySegment ids = arena.allocate(ADDRESS, n);
            OpenClException.check(cl.getPlatformIDs(n, ids, count), "clGetPlatformIDs");
            return read(ids, Math.min(n, count.get(JAVA_INT, 0)));
        }
    }

    private static List<MemorySegment> devices(OpenCl cl, MemorySegment platform) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            int code = cl.getDeviceIDs(platform, ClConstants.CL_DEVICE_TYPE_ALL, 0, MemorySegment.NULL, count);
            if (code == OpenClError.CL_DEVICE_NOT_FOUND.code()) {
                return List.of();
            }
            OpenClException.check(code, "clGetDeviceIDs");
            int n = count.get(JAVA_INT, 0);
            if (n == 0) {
                return List.of();
            }
            MemorySegment ids = arena.allocate(ADDRESS, n);
            OpenClException.check(cl.getDeviceIDs(platform, ClConstants.CL_DEVICE_TYPE_ALL, n, ids, count), "clGetDeviceIDs");
            return read(ids, Math.min(n, count.get(JAVA_INT, 0)));
        }
    }

    private static List<MemorySegment> read(MemorySegment ids, int n) {
        List<MemorySegment> result = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            result.add(ids.getAtIndex(ADDRESS, i));
        }
        return result;
    }
}
