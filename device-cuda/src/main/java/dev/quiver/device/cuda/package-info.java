/**
 * The CUDA backend: the CUDA driver API from {@code libcuda.so.1} through FFM, with no JNI and no
 * coupling to one CUDA release.
 *
 * <p><b>Versioned entry points.</b> {@code cuda.h} maps many names to versioned symbols
 * ({@code #define cuMemAlloc cuMemAlloc_v2}), and newer drivers add variants with other signatures
 * ({@code cuCtxGetDevice_v2}, {@code cuStreamGetCtx_v2}). This backend looks up exactly one symbol by name,
 * {@code cuGetProcAddress_v2}, and obtains every other entry point from it with a fixed CUDA version (12.0)
 * and {@code CU_GET_PROC_ADDRESS_LEGACY_STREAM}, so the driver returns the ABI variant whose signature the
 * bindings declare, whatever newer variants it also has. The declarations are checked against the CUDA
 * toolkit headers in the tests. A driver older than 12.0 is reported as too old.
 *
 * <p><b>Contexts.</b> Each device is used in its primary context ({@code cuDevicePrimaryCtxRetain}), the
 * one the CUDA runtime API uses, so memory, streams and events interoperate with runtime-API libraries.
 * Every call pushes the context and pops it again, leaving the calling thread's context stack unchanged.
 * An application's own context can be used instead ({@link dev.quiver.device.cuda.CudaInterop#adoptContext}).
 *
 * <p><b>Memory.</b> {@code ARROW_DEVICE_CUDA} is {@code cuMemAlloc} memory; {@code CUDA_HOST} is
 * {@code cuMemAllocHost} (page-locked, host accessible); {@code CUDA_MANAGED} is {@code cuMemAllocManaged}
 * (host accessible). Buffer pointers are addresses in CUDA's unified address space. Allocations are aligned
 * to 256 bytes.
 *
 * <p><b>Streams and events.</b> The default stream is the legacy default stream (NULL). Copies are
 * asynchronous on the caller's stream. Events are created with {@code CU_EVENT_DISABLE_TIMING}; an exported
 * array's {@code sync_event} is a {@code CUevent*} (= {@code cudaEvent_t*}) owned by the array and
 * destroyed by its release callback. On import the consumer honours the producer's event with
 * {@code cuEventSynchronize} (host wait) or {@code cuStreamWaitEvent} (stream wait).
 *
 * <p><b>Native handles.</b> {@code BackendDevice.nativeHandles()} gives, in this order, {@code "CUdevice"}
 * (the {@code CUdevice} handle, an {@code int}, as an address value) and {@code "CUcontext"} (the context the
 * device works in: the primary context, or the adopted one). They are borrowed: valid as long as the device,
 * which is the life of the process for the primary context; the caller never releases them.
 *
 * <p><b>Adopted streams and events.</b> {@code adoptStream} accepts a {@code CUstream} the application made
 * in the device's context (checked with {@code cuStreamGetCtx}; NULL, the legacy default stream, is
 * accepted) and {@code adoptEvent} a live {@code CUevent} (checked with {@code cuEventQuery}; CUDA cannot
 * tell which context an event belongs to). Both return the handle itself, which every method then takes,
 * including {@code recordEvent} on an adopted event. {@code forgetStream}/{@code forgetEvent} destroy it
 * ({@code cuStreamDestroy}, {@code cuEventDestroy}) only when asked; otherwise it stays the application's.
 *
 * <p><b>Errors.</b> Every failing {@code CUresult} becomes a {@link dev.quiver.device.cuda.CudaException}
 * naming the call and the error.
 *
 * <p><b>Library.</b> The system property {@code quiver.cuda.library} names another driver library file
 * (used by the tests to load a test double of the driver).
 *
 * <p><b>The library it lends.</b> {@code Device.vendorLibrary()} of every CUDA, CUDA_HOST and CUDA_MANAGED device
 * is the driver library this backend loaded ({@code libcuda.so.1}, or what {@code quiver.cuda.library} named),
 * with the file it came from: bind to it, not to a second copy of the driver.
 */
package dev.quiver.device.cuda;
