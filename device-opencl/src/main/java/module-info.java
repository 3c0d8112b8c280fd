/**
 * The OpenCL backend: {@code ARROW_DEVICE_OPENCL} through the ICD loader {@code libOpenCL.so.1}, with FFM.
 * Binds OpenCL and makes the upcall stub of its event-completion callback through the shared binding layer
 * {@code dev.quiver.device.ffm}, and makes restricted FFM calls of its own (reading {@code sync_event}
 * pointers): grant both modules native access.
 */
module dev.quiver.device.opencl {
    requires transitive dev.quiver.spi;
    requires dev.quiver.device.ffm;
    exports dev.quiver.device.opencl;
    provides dev.quiver.spi.DeviceProvider with dev.quiver.device.opencl.OpenClProvider;
}
