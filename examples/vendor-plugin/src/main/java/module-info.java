/**
 * An example third-party Quiver backend: host memory presented as an {@code ARROW_DEVICE_EXT_DEV}
 * device, with streams and events of its own. Built from {@code quiver-spi} alone. Makes no restricted
 * FFM calls.
 */
module com.example.quiver.hostext {
    requires dev.quiver.spi;
    requires static com.google.auto.service;
    provides dev.quiver.spi.DeviceProvider with com.example.quiver.hostext.HostExtProvider;
}
