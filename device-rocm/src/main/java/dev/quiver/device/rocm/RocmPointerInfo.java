package dev.quiver.device.rocm;

/**
 * What the HIP runtime says about a pointer that some other library allocated. Immutable.
 *
 * @param deviceType {@code ARROW_DEVICE_ROCM} for device and managed memory, {@code ARROW_DEVICE_ROCM_HOST}
 *                   for page-locked host memory
 * @param deviceId   the ordinal of the device the memory belongs to
 * @param managed    true for managed memory ({@code hipMallocManaged}), which Arrow has no device type for:
 *                   it is reported as {@code ROCM} and is host accessible
 */
public record RocmPointerInfo(int deviceType, long deviceId, boolean managed) {}
