package dev.quiver.device.oneapi;

/**
 * The values from {@code ze_api.h} this backend uses, each named exactly as its C enumerator or macro so
 * that the header checks compare every field of this class with the header. Result codes are in
 * {@link ZeResult}.
 */
final class ZeConstants {
    private ZeConstants() {}

    static final int ZE_MAX_IPC_HANDLE_SIZE = 64;

    static final int ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES = 0x3;
    static final int ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES = 0x7;
    static final int ZE_STRUCTURE_TYPE_CONTEXT_DESC = 0xd;
    static final int ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC = 0xe;
    static final int ZE_STRUCTURE_TYPE_EVENT_POOL_DESC = 0x10;
    static final int ZE_STRUCTURE_TYPE_EVENT_DESC = 0x11;
    static final int ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC = 0x15;
    static final int ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC = 0x16;

    static final int ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS = 2;
    static final int ZE_EVENT_POOL_FLAG_HOST_VISIBLE = 1;
    static final int ZE_EVENT_SCOPE_FLAG_HOST = 4;

    static final int ZE_DEVICE_TYPE_GPU = 1;
    static final int ZE_DEVICE_TYPE_CPU = 2;
    static final int ZE_DEVICE_TYPE_FPGA = 3;
    static final int ZE_DEVICE_TYPE_MCA = 4;
    static final int ZE_DEVICE_TYPE_VPU = 5;

    static final int ZE_MAX_DEVICE_NAME = 256;
    static final int ZE_MAX_DEVICE_UUID_SIZE = 16;
}
