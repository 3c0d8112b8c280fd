/**
 * The CPU backend: host memory for {@code ARROW_DEVICE_CPU}. Makes restricted FFM calls
 * ({@code posix_memalign}, {@code free} and {@code memcpy} from the C library): grant it native access.
 */
module dev.quiver.device.cpu {
    requires dev.quiver.spi;
    requires static com.google.auto.service;
    provides dev.quiver.spi.DeviceProvider with dev.quiver.device.cpu.CpuProvider;
}
