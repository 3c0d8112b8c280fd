package dev.quiver.device.rocm;

/**
 * The values from {@code hip_runtime_api.h} this backend uses, each named exactly as its C macro or
 * enumerator so that the header checks compare every field of this class with the installed headers. The
 * pointer memory types differ between ROCm 5 and 6; those of ROCm 6 are in {@link Rocm6}.
 */
final class HipConstants {
    private HipConstants() {}

    static final int hipSuccess = 0;
    static final int hipErrorInvalidValue = 1;
    static final int hipErrorNoDevice = 100;
    static final int hipErrorInvalidContext = 201;
    static final int hipErrorInvalidDevice = 101;
    static final int hipErrorInvalidHandle = 400;
    static final int hipErrorNotReady = 600;
    static final int hipErrorContextIsDestroyed = 709;

    static final int HIP_IPC_HANDLE_SIZE = 64;
    static final int hipIpcMemLazyEnablePeerAccess = 0;

    static final int hipMemcpyHostToDevice = 1;
    static final int hipMemcpyDeviceToHost = 2;
    static final int hipMemcpyDeviceToDevice = 3;

    static final int hipStreamDefault = 0;
    static final int hipEventDisableTiming = 2;
    static final int hipEventInterprocess = 4;
    static final int hipHostMallocDefault = 0;

    /** {@code hipMemoryType} of ROCm 5 (the installed headers): managed memory is told by {@code isManaged}. */
    static final int hipMemoryTypeHost = 0;
    static final int hipMemoryTypeDevice = 1;

    /**
     * {@code hipMemoryType} of ROCm 6 and later, which renumbered it to CUDA's values
     * ({@code hipMemoryTypeUnregistered = 0, Host = 1, Device = 2, Managed = 3, Array = 10, Unified = 11}) and
     * renamed the attribute field {@code memoryType} to {@code type} at the same offset. Not checked here:
     * the installed headers are ROCm 5's.
     */
    static final class Rocm6 {
        private Rocm6() {}

        static final int HOST = 1;
        static final int DEVICE = 2;
        static final int MANAGED = 3;
        static final int UNREGISTERED = 0;
    }
}
