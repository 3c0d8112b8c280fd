/**
 * The CUDA backend: the CUDA driver API ({@code libcuda.so.1}) through FFM, for {@code ARROW_DEVICE_CUDA},
 * {@code CUDA_HOST} and {@code CUDA_MANAGED}. Makes restricted FFM calls (loads the driver, calls it):
 * grant it native access.
 */
module dev.quiver.device.cuda {
    requires transitive dev.quiver.spi;
    requires dev.quiver.device.ffm;
    exports dev.quiver.device.cuda;
    provides dev.quiver.spi.DeviceProvider with dev.quiver.device.cuda.CudaProvider;
}
