package dev.quiver.device.opencl;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What OpenCL reports about one device and its platform, read once. Immutable.
 *
 * @param platform        the {@code cl_platform_id}
 * @param device          the {@code cl_device_id}
 * @param id              the Arrow device id: the device's index over all platforms, in enumeration order
 * @param name            {@code CL_DEVICE_NAME}
 * @param platformName    {@code CL_PLATFORM_NAME}
 * @param platformVersion {@code CL_PLATFORM_VERSION}
 * @param vendor          {@code CL_DEVICE_VENDOR}
 * @param version         {@code CL_DEVICE_VERSION}
 * @param driverVersion   {@code CL_DRIVER_VERSION}
 * @param cVersion        {@code CL_DEVICE_OPENCL_C_VERSION}
 * @param type            {@code CL_DEVICE_TYPE} bits
 * @param computeUnits    {@code CL_DEVICE_MAX_COMPUTE_UNITS}
 * @param clockMhz        {@code CL_DEVICE_MAX_CLOCK_FREQUENCY}
 * @param globalMemory    {@code CL_DEVICE_GLOBAL_MEM_SIZE} in bytes
 * @param maxAllocation   {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE} in bytes
 * @param baseAlignment   {@code CL_DEVICE_MEM_BASE_ADDR_ALIGN} converted to bytes
 */
record ClDeviceInfo(MemorySegment platform, MemorySegment device, long id, String name, String platformName,
                    String platformVersion, String vendor, String version, String driverVersion, String cVersion,
                    long type, int computeUnits, int clockMhz, long globalMemory, long maxAllocation, long baseAlignment) {

    private static final Pattern VERSION = Pattern.compile("OpenCL (\\d+)\\.(\\d+)");

    /** Reads everything about {@code device} of {@code platform}. */
    static ClDeviceInfo read(OpenCl cl, MemorySegment platform, MemorySegment device, long id) {
        ClInfo.Query p = cl.info(ClFunction.clGetPlatformInfo);
        ClInfo.Query d = cl.info(ClFunction.clGetDeviceInfo);
        return new ClDeviceInfo(platform, device, id,
                ClInfo.string(d, device, ClConstants.CL_DEVICE_NAME, "clGetDeviceInfo(CL_DEVICE_NAME)"),
                ClInfo.string(p, platform, ClConstants.CL_PLATFORM_NAME, "clGetPlatformInfo(CL_PLATFORM_NAME)"),
                ClInfo.string(p, platform, ClConstants.CL_PLATFORM_VERSION, "clGetPlatformInfo(CL_PLATFORM_VERSION)"),
                ClInfo.string(d, device, ClConstants.CL_DEVICE_VENDOR, "clGetDeviceInfo(CL_DEVICE_VENDOR)"),
                ClInfo.string(d, device, ClConstants.CL_DEVICE_VERSION, "clGetDeviceInfo(CL_DEVICE_VERSION)"),
                ClInfo.string(d, device, ClConstants.CL_DRIVER_VERSION, "clGetDeviceInfo(CL_DRIVER_VERSION)"),
                ClInfo.string(d, device, ClConstants.CL_DEVICE_OPENCL_C_VERSION, "clGetDeviceInfo(CL_DEVICE_OPENCL_C_VERSION)"),
                ClInfo.ulong(d, device, ClConstants.CL_DEVICE_TYPE, "clGetDeviceInfo(CL_DEVICE_TYPE)"),
                ClInfo.uint(d, device, ClConstants.CL_DEVICE_MAX_COMPUTE_UNITS, "clGetDeviceInfo(CL_DEVICE_MAX_COMPUTE_UNITS)"),
                ClInfo.uint(d, device, ClConstants.CL_DEVICE_MAX_CLOCK_FREQUENCY, "clGetDeviceInfo(CL_DEVICE_MAX_CLOCK_FREQUENCY)"),
                ClInfo.ulong(d, device, ClConstants.CL_DEVICE_GLOBAL_MEM_SIZE, "clGetDeviceInfo(CL_DEVICE_GLOBAL_MEM_SIZE)"),
                ClInfo.ulong(d, device, ClConstants.CL_DEVICE_MAX_MEM_ALLOC_SIZE, "clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE)"),
                ClInfo.uint(d, device, ClConstants.CL_DEVICE_MEM_BASE_ADDR_ALIGN, "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)") / 8L);
    }

    /**
     * @param hostUnifiedMemory {@code CL_DEVICE_HOST_UNIFIED_MEMORY}, where the platform answers it
     * @return what the device is: a GPU that shares host memory is an integrated one
     */
    dev.quiver.spi.HardwareKind hardwareKind(boolean hostUnifiedMemory) {
        if ((type & ClConstants.CL_DEVICE_TYPE_GPU) != 0) {
            return hostUnifiedMemory ? dev.quiver.spi.HardwareKind.INTEGRATED_GPU : dev.quiver.spi.HardwareKind.DISCRETE_GPU;
        }
        if ((type & ClConstants.CL_DEVICE_TYPE_CPU) != 0) {
            return dev.quiver.spi.HardwareKind.CPU;
        }
        if ((type & ClConstants.CL_DEVICE_TYPE_ACCELERATOR) != 0) {
            return dev.quiver.spi.HardwareKind.ACCELERATOR;
        }
        return dev.quiver.spi.HardwareKind.OTHER;
    }

    /** @return the name Quiver shows: the device name and, in parentheses, its platform */
    String displayName() {
        return name + " (" + platformName + ")";
    }

    /** @return whether the platform has {@code clCreateCommandQueueWithProperties}, new in OpenCL 2.0 */
    boolean hasQueueProperties() {
        Matcher m = VERSION.matcher(platformVersion);
        return m.find() && Integer.parseInt(m.group(1)) >= 2;
    }

    /** @return the facts {@code quiver devices} shows, in a stable order */
    Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("platform", platformName);
        p.put("platform-version", platformVersion.replaceAll("\\s+", " "));
        p.put("vendor", vendor);
        p.put("version", version);
        p.put("driver", driverVersion);
        p.put("opencl-c", cVersion);
        p.put("type", typeName());
        p.put("compute-units", Integer.toString(computeUnits));
        p.put("clock", clockMhz + " MHz");
        p.put("global-memory", bytes(globalMemory));
        p.put("max-allocation", bytes(maxAllocation));
        p.put("alignment", baseAlignment + " B");
        return p;
    }

    private String typeName() {
        List<String> names = new ArrayList<>();
        if ((type & ClConstants.CL_DEVICE_TYPE_CPU) != 0) {
            names.add("CPU");
        }
        if ((type & ClConstants.CL_DEVICE_TYPE_GPU) != 0) {
            names.add("GPU");
        }
        if ((type & ClConstants.CL_DEVICE_TYPE_ACCELERATOR) != 0) {
            names.add("ACCELERATOR");
        }
        if ((type & ClConstants.CL_DEVICE_TYPE_CUSTOM) != 0) {
            names.add("CUSTOM");
        }
        return names.isEmpty() ? "0x" + Long.toHexString(type) : String.join("|", names);
    }

    static String bytes(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format("%.1f GiB", bytes / (double) (1L << 30));
        }
        if (bytes >= 1L << 20) {
            return String.format("%.1f MiB", bytes / (double) (1L << 20));
        }
        return bytes + " B";
    }
}
