package dev.quiver.device.cuda;

/**
 * What the CUDA driver says about a pointer that some other library allocated: where its memory lives, as
 * an Arrow device. Immutable.
 *
 * @param deviceType {@code ARROW_DEVICE_CUDA} for device memory, {@code ARROW_DEVICE_CUDA_HOST} for
 *                   page-locked host memory, {@code ARROW_DEVICE_CUDA_MANAGED} for managed memory
 * @param deviceId   the ordinal of the device whose context allocated it
 */
public record CudaPointerInfo(int deviceType, long deviceId) {}
