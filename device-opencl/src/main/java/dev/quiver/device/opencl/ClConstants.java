package dev.quiver.device.opencl;

/**
 * The OpenCL constants this backend passes or reads, named exactly as {@code CL/cl.h} names them. A test
 * checks every field here against the header with the C compiler.
 */
final class ClConstants {
    private ClConstants() {}

    static final int CL_FALSE = 0;
    static final int CL_TRUE = 1;

    static final int CL_PLATFORM_PROFILE = 0x0900;
    static final int CL_PLATFORM_VERSION = 0x0901;
    static final int CL_PLATFORM_NAME = 0x0902;
    static final int CL_PLATFORM_VENDOR = 0x0903;

    static final long CL_DEVICE_TYPE_CPU = 1L << 1;
    static final long CL_DEVICE_TYPE_GPU = 1L << 2;
    static final long CL_DEVICE_TYPE_ACCELERATOR = 1L << 3;
    static final long CL_DEVICE_TYPE_CUSTOM = 1L << 4;
    static final long CL_DEVICE_TYPE_ALL = 0xFFFFFFFFL;

    static final int CL_DEVICE_TYPE = 0x1000;
    static final int CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002;
    static final int CL_DEVICE_MAX_CLOCK_FREQUENCY = 0x100C;
    static final int CL_DEVICE_MAX_MEM_ALLOC_SIZE = 0x1010;
    static final int CL_DEVICE_MEM_BASE_ADDR_ALIGN = 0x1019;
    static final int CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F;
    static final int CL_DEVICE_AVAILABLE = 0x1027;
    static final int CL_DEVICE_NAME = 0x102B;
    static final int CL_DEVICE_VENDOR = 0x102C;
    static final int CL_DRIVER_VERSION = 0x102D;
    static final int CL_DEVICE_VERSION = 0x102F;
    static final int CL_DEVICE_PLATFORM = 0x1031;
    /** Deprecated in OpenCL 2.0, still answered by the drivers that matter. */
    static final int CL_DEVICE_HOST_UNIFIED_MEMORY = 0x1035;
    static final int CL_DEVICE_OPENCL_C_VERSION = 0x103D;

    static final int CL_CONTEXT_REFERENCE_COUNT = 0x1080;
    static final int CL_CONTEXT_DEVICES = 0x1081;
    static final int CL_CONTEXT_PLATFORM = 0x1084;

    static final int CL_QUEUE_CONTEXT = 0x1090;
    static final int CL_QUEUE_DEVICE = 0x1091;
    static final int CL_QUEUE_REFERENCE_COUNT = 0x1092;
    static final int CL_QUEUE_PROPERTIES = 0x1093;
    static final long CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE = 1L << 0;

    static final long CL_MEM_READ_WRITE = 1L << 0;
    static final long CL_MEM_ALLOC_HOST_PTR = 1L << 4;
    static final long CL_MAP_READ = 1L << 0;
    static final long CL_MAP_WRITE = 1L << 1;

    static final int CL_EVENT_COMMAND_TYPE = 0x11D1;
    static final int CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11D3;
    static final int CL_EVENT_CONTEXT = 0x11D4;
    static final int CL_COMPLETE = 0x0;
    static final int CL_RUNNING = 0x1;
    static final int CL_SUBMITTED = 0x2;
    static final int CL_QUEUED = 0x3;
    static final int CL_COMMAND_MARKER = 0x11FE;
    static final int CL_COMMAND_USER = 0x1204;
}
