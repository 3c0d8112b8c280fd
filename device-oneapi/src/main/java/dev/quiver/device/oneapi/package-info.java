/**
 * The oneAPI backend: Level Zero from {@code libze_loader.so.1} through FFM, for
 * {@code ARROW_DEVICE_ONEAPI}.
 *
 * <p><b>Structure.</b> {@code zeInit}, then every driver ({@code zeDriverGet}) with one context each
 * ({@code zeContextCreate}) and every device of it ({@code zeDeviceGet}). Streams are immediate command
 * lists ({@code zeCommandListCreateImmediate}, asynchronous mode); waits use host-visible events from event
 * pools ({@code zeEventPoolCreate}, {@code zeEventCreate}, {@code zeEventHostSynchronize}).
 *
 * <p><b>Memory.</b> Unified shared memory of one kind per provider: {@code zeMemAllocDevice} (default),
 * {@code zeMemAllocShared} or {@code zeMemAllocHost} (the system property {@code quiver.oneapi.memory}, or
 * {@link dev.quiver.device.oneapi.OneApiProvider#OneApiProvider(java.nio.file.Path, OneApiMemory)}). Copies
 * to and from ordinary host memory are staged through {@code zeMemAllocHost} memory.
 *
 * <p><b>The sync event.</b> For {@code ONEAPI}, the Arrow C Device interface makes {@code sync_event} a
 * {@code sycl::event*}: a C++ SYCL object that Level Zero can neither create nor wait on. Therefore:
 * <ul>
 *   <li><em>Export.</em> Arrays this backend produces are synchronised on the host before they are handed
 *       out, and their {@code sync_event} is NULL, which the interface allows for data that is ready.</li>
 *   <li><em>Import.</em> An array whose {@code sync_event} is set is imported unchanged (Quiver never waits
 *       silently), and honouring its event (a host wait, a stream wait, a copy) calls the waiter the
 *       application registered for that {@code sycl::event*} with
 *       {@link dev.quiver.device.oneapi.SyclEventWaiters#register}; with no waiter it fails with an
 *       {@link java.lang.UnsupportedOperationException} that says what to do. A stream wait becomes a host
 *       wait, since a Level Zero command list cannot wait on a SYCL event.</li>
 * </ul>
 *
 * <p><b>Native handles.</b> {@code BackendDevice.nativeHandles()} gives, in this order,
 * {@code "ze_driver_handle_t"}, {@code "ze_context_handle_t"} (the context the backend made for the driver,
 * in which all its memory lives) and {@code "ze_device_handle_t"}. They are borrowed: valid as long as the
 * device (the life of the process), never released by the caller.
 *
 * <p><b>Adopted streams.</b> {@code adoptStream} takes an application's immediate command list
 * ({@code zeCommandListCreateImmediate}) made on that context and device, and returns the same handle, which
 * every method then takes: the backend appends its copies and barriers to it and waits for it with a
 * host-visible event of its own pools, under its own lock (the application must not append to the list
 * concurrently). Level Zero 1.4, whose loader this backend is built against, has no call that tells a command
 * list's device or context or whether it is immediate, so none of that can be checked; a regular command
 * list would never run and synchronising it would not return. A list adopted more than once is served until
 * forgotten as often. {@code forgetStream} synchronises the list and gives the event back; with
 * {@code destroy} it also destroys the list ({@code zeCommandListDestroy}). There are no events to adopt:
 * {@code adoptEvent} throws {@link java.lang.UnsupportedOperationException}, as the other event methods do.
 *
 * <p><b>Errors.</b> Every failing {@code ze_result_t} becomes a
 * {@link dev.quiver.device.oneapi.OneApiException} naming the call and the result.
 *
 * <p><b>Library.</b> The system property {@code quiver.oneapi.library} names another loader library file
 * (used by the tests to load a test double of Level Zero).
 *
 * <p><b>The library it lends.</b> {@code Device.vendorLibrary()} of every oneAPI device is the Level Zero loader
 * this backend loaded ({@code libze_loader.so.1}, or what {@code quiver.oneapi.library} named), with the file it
 * came from.
 */
package dev.quiver.device.oneapi;
