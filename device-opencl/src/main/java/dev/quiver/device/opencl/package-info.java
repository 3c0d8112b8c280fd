/**
 * The OpenCL backend: {@code ARROW_DEVICE_OPENCL} (device type 4) on any OpenCL 1.2 or later platform, through the
 * Khronos ICD loader {@code libOpenCL.so.1} called with FFM (no JNI, no JOCL). Every downcall is declared once,
 * with its C declaration, in one table that the tests compile against {@code CL/cl.h}, and bound through the
 * binding layer Quiver's FFM backends share ({@code dev.quiver.device.ffm}).
 *
 * <p><b>Devices.</b> {@link dev.quiver.device.opencl.OpenClProvider} lists every device of every platform;
 * a device's id is its index in that list (platforms in {@code clGetPlatformIDs} order, then devices in
 * {@code clGetDeviceIDs} order). Each device gets one context and one in-order command queue. Applications
 * that already have a context and queue hand them over with
 * {@link dev.quiver.device.opencl.OpenClDevices#adopt}.
 *
 * <p><b>Buffers.</b> {@code buffers[i]} of an OPENCL {@code ArrowDeviceArray} is a {@code cl_mem} buffer
 * handle of the device's context, never a device address: nothing ever adds an offset to it. A buffer's
 * data starts at byte 0 of the {@code cl_mem}; array offsets are applied as element offsets, and every copy
 * passes byte offsets beside the handle ({@code clEnqueueReadBuffer}, {@code clEnqueueWriteBuffer},
 * {@code clEnqueueCopyBuffer}). Buffers are created {@code CL_MEM_READ_WRITE}; a zero-length buffer is a
 * one-byte {@code cl_mem}, since OpenCL has no empty buffers.
 *
 * <p><b>Streams</b> are {@code cl_command_queue}s: the default stream is the device's queue (and
 * {@code NULL} means it), a new stream is another in-order queue on the same context, and synchronizing is
 * {@code clFinish}.
 *
 * <p><b>Events.</b> {@code sync_event} of an OPENCL array is a {@code cl_event*}: a pointer to one
 * {@code cl_event} of the device's context, and
 * {@link dev.quiver.device.opencl.OpenClDevice#eventFromSyncEvent} returns that {@code cl_event}, borrowed
 * from the producer. OpenCL creates events only by enqueueing commands, so {@code recordNewEvent} (what
 * {@code DeviceStream.recordEvent} calls) enqueues a marker ({@code clEnqueueMarkerWithWaitList}), flushes
 * the queue and returns the marker's event itself: the device and C consumers wait on it directly. The SPI's
 * other way, creating an event before recording it, is served too: {@code createEvent} returns a user
 * event ({@code clCreateUserEvent}) and {@code recordEvent} enqueues a marker whose completion callback
 * ({@code clSetEventCallback}) sets the user event to {@code CL_COMPLETE} (or to the marker's error
 * status). The user event therefore completes exactly when the work enqueued before the record does, and a
 * consumer in C can use it like any {@code cl_event}: {@code clWaitForEvents} to wait on the host, an event
 * wait list ({@code clEnqueueBarrierWithWaitList}) to make a queue of the same context wait, and
 * {@code clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)} to poll. An event is recorded at most once.
 * The device itself waits for, polls and makes queues wait on the marker ({@code waitEvent},
 * {@code isEventComplete}, {@code streamWaitEvent} on an event it recorded), which it keeps until
 * {@code destroyEvent}, so that its own waits do not also wait for the completion callback.
 * The producer releases it ({@code clReleaseEvent}) in the array's release callback.
 *
 * <p><b>Native handles.</b> {@link dev.quiver.device.opencl.OpenClDevice#nativeHandles()} (the SPI's
 * {@code BackendDevice.nativeHandles}, so no downcast is needed) gives, in this order:
 * <ul>
 *   <li>{@code "cl_platform_id"}: the device's platform;</li>
 *   <li>{@code "cl_context"}: the device's context, on which its buffers, queues and events live;</li>
 *   <li>{@code "cl_device_id"}: the device;</li>
 *   <li>{@code "cl_command_queue"}: the default queue, the default stream.</li>
 * </ul>
 * They are borrowed: the device owns them and they stay valid while it is open (for devices of the provider,
 * for the life of the process); the caller never releases them, and retains them
 * ({@code clRetainContext}, ...) only to keep them longer.
 *
 * <p><b>Adoption.</b> Code that makes its own queues and events on those handles hands them over with
 * {@code adoptStream(cl_command_queue)} and {@code adoptEvent(cl_event)}. Adopting checks the object
 * ({@code clGetCommandQueueInfo}: the queue's {@code CL_QUEUE_CONTEXT} and {@code CL_QUEUE_DEVICE} are this
 * device's, and it is in order; {@code clGetEventInfo}: the event's {@code CL_EVENT_CONTEXT} is this
 * device's), refuses anything else with an {@link java.lang.IllegalArgumentException} that retains nothing,
 * and retains the object ({@code clRetainCommandQueue}, {@code clRetainEvent}) while adopted; the maker keeps
 * its own reference. Every method taking a stream accepts an adopted queue (copies, synchronize,
 * {@code recordEvent}, {@code streamWaitEvent}); {@code waitEvent}, {@code streamWaitEvent} and
 * {@code isEventComplete} accept an adopted event. An adopted {@code cl_event} cannot be recorded: an
 * OpenCL event is the completion of one command and completes once, so {@code recordEvent} refuses it
 * (record an event from {@code createEvent} instead). {@code forgetStream} and {@code forgetEvent} release
 * the reference adoption took, and with {@code destroy} the maker's too (after {@code clFinish} for a
 * queue).
 *
 * <p><b>Errors.</b> Every failing OpenCL call throws {@link dev.quiver.device.opencl.OpenClException}, a
 * {@link dev.quiver.spi.DeviceException} naming the call and the error by its C name
 * ({@link dev.quiver.device.opencl.OpenClError}). Bad arguments ({@code alignment} not a power of two or above
 * {@code CL_DEVICE_MEM_BASE_ADDR_ALIGN}, a buffer freed twice, a queue or event of another context) get an
 * {@link java.lang.IllegalArgumentException} naming what was wrong, and nothing is retained or leaked.
 *
 * <p><b>Native access.</b> The module {@code dev.quiver.device.opencl} loads {@code libOpenCL.so.1}, calls
 * into it and gives it an upcall through {@code dev.quiver.device.ffm}, and makes restricted FFM calls of its
 * own (reading {@code sync_event} pointers): grant both modules native access. The system property
 * {@code quiver.opencl.library} names another OpenCL library (a soname or a path) to load instead.
 *
 * <p><b>The library it lends.</b> {@code Device.vendorLibrary()} of every OpenCL device is the library this
 * backend loaded: the ICD loader {@code libOpenCL.so.1}, or what {@code quiver.opencl.library} named, with the
 * file it came from. A library with OpenCL bindings of its own binds them to its lookup and so calls the same
 * loader and drivers as Quiver, with no need to read {@code quiver.opencl.library} itself.
 */
package dev.quiver.device.opencl;
