package dev.quiver.device.cuda;

/**
 * The values from {@code cuda.h} this backend uses, each named exactly as its C macro or enumerator so that
 * the header checks compare every field of this class with the header.
 */
final class CudaConstants {
    private CudaConstants() {}

    static final int CUDA_SUCCESS = 0;
    static final int CUDA_ERROR_INVALID_VALUE = 1;
    static final int CUDA_ERROR_NO_DEVICE = 100;
    static final int CUDA_ERROR_INVALID_CONTEXT = 201;
    static final int CUDA_ERROR_INVALID_HANDLE = 400;
    static final int CUDA_ERROR_NOT_READY = 600;

    static final long CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1;
    static final int CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2;

    static final int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
    static final int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
    static final int CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83;
    static final int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
    static final int CU_DEVICE_ATTRIBUTE_INTEGRATED = 18;
    static final int CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED = 125;

    static final int CU_STREAM_DEFAULT = 0;
    static final int CU_EVENT_DISABLE_TIMING = 2;
    static final int CU_EVENT_INTERPROCESS = 4;
    static final int CU_MEM_ATTACH_GLOBAL = 1;

    static final int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
    static final int CU_POINTER_ATTRIBUTE_IS_MANAGED = 8;
    static final int CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9;

    static final int CU_MEMORYTYPE_HOST = 1;
    static final int CU_MEMORYTYPE_DEVICE = 2;

    static final int CU_IPC_HANDLE_SIZE = 64;
    static final int CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 1;
}
