/**
 * The CPU backend: host memory for {@code ARROW_DEVICE_CPU}. Binds {@code posix_memalign} and {@code free}
 * from the C library, and copies with its {@code memcpy}, through the shared binding layer
 * {@code dev.quiver.device.ffm}, and makes
 * restricted FFM calls of its own (sizing the C library's memory with {@code MemorySegment.reinterpret}):
 * grant both modules native access.
 */
module dev.quiver.device.cpu {
    requires dev.quiver.spi;
    requires dev.quiver.device.ffm;
    provides dev.quiver.spi.DeviceProvider with dev.quiver.device.cpu.CpuProvider;
}
