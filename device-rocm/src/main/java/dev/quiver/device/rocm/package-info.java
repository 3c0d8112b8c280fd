/**
 * The ROCm backend: AMD's HIP runtime from {@code libamdhip64} through FFM.
 *
 * <p><b>Memory.</b> {@code ARROW_DEVICE_ROCM} is {@code hipMalloc} memory; {@code ROCM_HOST} is
 * {@code hipHostMalloc} (page-locked, host accessible). Buffer pointers are addresses in HIP's unified
 * address space. Allocations are aligned to 256 bytes.
 *
 * <p><b>Devices.</b> HIP keeps a current device per thread; every call makes its device current and
 * restores the thread's previous device afterwards, so applications keep theirs.
 *
 * <p><b>Streams and events.</b> The default stream is the null stream. Copies are {@code hipMemcpyAsync} on
 * the caller's stream. Events are created with {@code hipEventDisableTiming}; an exported array's
 * {@code sync_event} is a {@code hipEvent_t*} owned by the array and destroyed by its release callback. On
 * import the consumer honours the producer's event with {@code hipEventSynchronize} (host wait) or
 * {@code hipStreamWaitEvent} (stream wait).
 *
 * <p><b>Native handles.</b> {@code BackendDevice.nativeHandles()} gives {@code "hipDevice_t"}: the device
 * handle ({@code hipDeviceGet}, an {@code int}), as an address value. It is borrowed, valid as long as the
 * device (the life of the process), and never released by the caller.
 *
 * <p><b>Adopted streams and events.</b> {@code adoptStream} accepts a {@code hipStream_t} the application
 * made (NULL, the null stream, too) after checking it with {@code hipStreamQuery} with the device current;
 * {@code adoptEvent} accepts a {@code hipEvent_t} after checking it with {@code hipEventQuery}. A handle HIP
 * does not know is refused with an {@link java.lang.IllegalArgumentException}, and so is a stream for which
 * HIP reports {@code hipErrorInvalidDevice}; HIP 5 has no call that names a stream's or an event's device,
 * so the application must pass streams of the device it adopts them into. Both return the handle itself,
 * which every method then takes. {@code forgetStream}/{@code forgetEvent} destroy it
 * ({@code hipStreamDestroy}, {@code hipEventDestroy}) only when asked.
 *
 * <p><b>ROCm 5 and 6.</b> The entry points used keep their names and signatures across both. ROCm 6
 * renumbered {@code hipMemoryType} and renamed {@code hipPointerAttribute_t.memoryType} to {@code type} (same
 * layout); {@link dev.quiver.device.rocm.RocmInterop#describe} reads it by the runtime's major version.
 *
 * <p><b>Errors.</b> Every failing {@code hipError_t} becomes a {@link dev.quiver.device.rocm.RocmException}
 * naming the call and the error.
 *
 * <p><b>Library.</b> The system property {@code quiver.rocm.library} names another runtime library file
 * (used by the tests to load a test double of HIP).
 *
 * <p><b>The library it lends.</b> {@code Device.vendorLibrary()} of every ROCm and ROCM_HOST device is the HIP
 * runtime this backend loaded (the first of {@code libamdhip64.so}, {@code .so.6}, {@code .so.5} that loads, or
 * what {@code quiver.rocm.library} named), with the file it came from.
 */
package dev.quiver.device.rocm;
