/**
 * The Metal backend: Metal through the Objective-C runtime and FFM, for {@code ARROW_DEVICE_METAL}. Loads
 * only on macOS; elsewhere its probe says so. Makes restricted FFM calls (loads {@code libobjc} and the
 * Metal framework, sends messages): grant it native access.
 */
module dev.quiver.device.metal {
    requires transitive dev.quiver.spi;
    requires dev.quiver.device.ffm;
    exports dev.quiver.device.metal;
    provides dev.quiver.spi.DeviceProvider with dev.quiver.device.metal.MetalProvider;
}
