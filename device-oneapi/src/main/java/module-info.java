/**
 * The oneAPI backend: Level Zero ({@code libze_loader.so.1}) through FFM, for {@code ARROW_DEVICE_ONEAPI}.
 * Makes restricted FFM calls (loads the loader, calls it): grant it native access.
 */
module dev.quiver.device.oneapi {
    requires transitive dev.quiver.spi;
    requires dev.quiver.device.ffm;
    exports dev.quiver.device.oneapi;
    provides dev.quiver.spi.DeviceProvider with dev.quiver.device.oneapi.OneApiProvider;
}
