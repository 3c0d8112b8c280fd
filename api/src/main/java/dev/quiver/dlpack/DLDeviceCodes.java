package dev.quiver.dlpack;

import dev.quiver.spi.DeviceTypeCodes;

/** DLPack {@code DLDeviceType} values: which codes DLPack 1.3 defines, and its device id conventions. */
final class DLDeviceCodes {
    /** {@code kDLTrn}, the highest code DLPack 1.3 defines. */
    static final int LAST_DEFINED = 18;

    private DLDeviceCodes() {}

    /** @return true for the codes DLPack 1.3 defines: 1 to 4 and 7 to 18 (5 and 6 are unassigned) */
    static boolean isDefined(int code) {
        return code >= DeviceTypeCodes.CPU && code <= DeviceTypeCodes.OPENCL || code >= DeviceTypeCodes.VULKAN && code <= LAST_DEFINED;
    }

    /**
     * @return true where DLPack's {@code device_id} is 0 by convention: CPU, pinned and managed memory
     */
    static boolean hasZeroDeviceId(int code) {
        return code == DeviceTypeCodes.CPU || code == DeviceTypeCodes.CUDA_HOST || code == DeviceTypeCodes.ROCM_HOST
                || code == DeviceTypeCodes.CUDA_MANAGED;
    }
}
