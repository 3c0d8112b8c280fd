/**
 * The OpenCL backend: {@code ARROW_DEVICE_OPENCL} through the ICD loader {@code libOpenCL.so.1}, with FFM.
 * Makes restricted FFM calls (loads and calls OpenCL, and an upcall for event completion): grant it native
 * access.
 */
module dev.quiver.device.opencl {
    requires transitive dev.quiver.spi;
    requires static com.google.auto.service;
    exports dev.quiver.device.opencl;
    provides dev.quiver.spi.DeviceProvider with dev.quiver.device.opencl.OpenClProvider;
}
