/**
 * The ROCm backend: AMD's HIP runtime ({@code libamdhip64}) through FFM, for {@code ARROW_DEVICE_ROCM} and
 * {@code ROCM_HOST}. Makes restricted FFM calls (loads the runtime, calls it): grant it native access.
 */
module dev.quiver.device.rocm {
    requires transitive dev.quiver.spi;
    requires dev.quiver.device.ffm;
    exports dev.quiver.device.rocm;
    provides dev.quiver.spi.DeviceProvider with dev.quiver.device.rocm.RocmProvider;
}
