/**
 * Plumbing shared by Quiver's own FFM backends (CPU, CUDA, ROCm, oneAPI, Metal, OpenCL, Vulkan): loading a
 * vendor library with a probe reason when it is missing (or taking the C library the JVM has), calling entry
 * points bound from a declarative table, by exported symbol or through a loader function such as
 * {@code vkGetInstanceProcAddr}, and turning their result codes into exceptions, making upcall stubs for
 * vendor callbacks, tracking a device's live allocations, and bulk host copies. Internal: exported only to those backends.
 * Makes restricted FFM calls (library loading, downcall handles, upcall stubs): grant it native access.
 */
@SuppressWarnings("module")   // the modules of the qualified export are built after this one
module dev.quiver.device.ffm {
    requires transitive dev.quiver.spi;
    exports dev.quiver.device.ffm to dev.quiver.device.cpu, dev.quiver.device.cuda, dev.quiver.device.rocm,
            dev.quiver.device.oneapi, dev.quiver.device.metal, dev.quiver.device.opencl, dev.quiver.device.vulkan;
}
