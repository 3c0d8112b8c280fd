package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.VendorDevice;

import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One Level Zero device serving one kind of unified shared memory ({@link OneApiMemory}) as
 * {@code ARROW_DEVICE_ONEAPI}.
 *
 * <p><b>Handles.</b> Pointers are USM pointers (virtual addresses). Streams are immediate command lists
 * ({@code ze_command_list_handle_t}); {@link MemorySegment#NULL} and {@link #defaultStream()} are the device's
 * default list.
 *
 * <p><b>Copies.</b> Host memory given to the copy methods may be ordinary (system) memory, which a device
 * cannot be relied on to access, so copies to and from the host go through USM host staging memory: into
 * staging at once, out of staging when the stream is synchronised. Copies may return before they complete.
 *
 * <p><b>Events.</b> Level Zero cannot make the {@code sycl::event} that the Arrow C Device interface
 * prescribes for {@code sync_event}, so this device reports no events: arrays copied to it are complete
 * (synchronised on the host) when exported and carry a NULL {@code sync_event}. Imported arrays whose
 * {@code sync_event} is set are honoured through {@link SyclEventWaiters}; without a registered waiter,
 * honouring the event fails with an exception that says so. Level Zero events are used only inside the
 * backend, to wait for command lists.
 *
 * <p><b>Native handles and adoption.</b> {@link #nativeHandles()} gives the driver, context and device
 * handles, borrowed. {@link #adoptStream} takes an application's immediate command list of this device and
 * context as a stream (with a host-visible event of this backend to wait for it), {@link #forgetStream}
 * synchronises it and gives the event back, destroying the list only when asked.
 *
 * <p><b>Threading.</b> All methods may be called from any thread; streams lock around each use.
 */
final class OneApiDevice extends VendorDevice implements dev.quiver.spi.EventWaits, dev.quiver.spi.NativeAdoption {
    private final ZeDevice device;
    private final OneApiMemory memory;
    private final dev.quiver.spi.LoadedLibrary library;
    private final Map<String, MemorySegment> handles;

    OneApiDevice(ZeDevice device, OneApiMemory memory, dev.quiver.spi.LoadedLibrary library) {
        super(memory.kind, device.id, device.name, device.totalMemory, ZeDevice.ALIGNMENT, "Level Zero");
        this.device = device;
        this.memory = memory;
        this.library = library;
        Map<String, MemorySegment> named = new LinkedHashMap<>();
        named.put("ze_driver_handle_t", device.driver);
        named.put("ze_context_handle_t", device.context);
        named.put("ze_device_handle_t", device.device);
        this.handles = Collections.unmodifiableMap(named);
    }

    /** @return the Level Zero loader this backend loaded ({@code libze_loader.so.1}, or {@code quiver.oneapi.library}) */
    @Override
    public java.util.Optional<dev.quiver.spi.LoadedLibrary> vendorLibrary() {
        return java.util.Optional.of(library);
    }

    @Override
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("type", device.type);
        p.put("memory", memory.toString());
        p.put("allocator", memory.kind.allocator());
        p.put("max allocation", Long.toString(device.maxAllocation));
        return p;
    }

    // ---- memory -------------------------------------------------------------------------------

    @Override
    protected MemorySegment allocateNative(long byteSize) {
        return switch (memory) {
            case DEVICE -> device.allocateDevice(byteSize);
            case SHARED -> device.allocateShared(byteSize);
            case HOST -> device.allocateHost(byteSize);
        };
    }

    @Override
    protected void freeNative(MemorySegment pointer) {
        device.free(pointer);
    }

    // ---- memory of other processes ------------------------------------------------------------

    /** {@return Level Zero IPC for {@code zeMemAllocDevice} memory; nothing for shared and host memory} */
    @Override
    protected java.util.Optional<dev.quiver.device.ffm.VendorIpc> ipc() {
        return memory == OneApiMemory.DEVICE ? java.util.Optional.of(new ZeIpc(device)) : java.util.Optional.empty();
    }

    // ---- copies -------------------------------------------------------------------------------

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        long size = source.byteSize();
        if (size == 0) {
            return;
        }
        ZeStream on = device.stream(stream);
        MemorySegment staging = device.allocateHost(size).reinterpret(size);
        try {
            staging.copyFrom(source);
            on.copy(MemorySegment.ofAddress(destination.address() + destinationOffset), staging, size, () -> device.free(staging));
        } catch (RuntimeException e) {
            device.free(staging);
            throw e;
        }
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        long size = destination.byteSize();
        if (size == 0) {
            return;
        }
        ZeStream on = device.stream(stream);
        MemorySegment staging = device.allocateHost(size).reinterpret(size);
        // The stream may be synchronised from another thread: write through an unconfined view.
        MemorySegment target = MemorySegment.ofAddress(destination.address()).reinterpret(size);
        try {
            on.copy(staging, MemorySegment.ofAddress(source.address() + sourceOffset), size, () -> {
                target.copyFrom(staging);
                device.free(staging);
            });
        } catch (RuntimeException e) {
            device.free(staging);
            throw e;
        }
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        if (byteCount == 0) {
            return;
        }
        device.stream(stream).copy(MemorySegment.ofAddress(destination.address() + destinationOffset),
                MemorySegment.ofAddress(source.address() + sourceOffset), byteCount, null);
    }

    // ---- streams ------------------------------------------------------------------------------

    @Override
    public MemorySegment defaultStream() {
        return device.defaultStream().list();
    }

    @Override
    public MemorySegment createStream() {
        return device.createStream().list();
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        device.stream(stream).synchronize();
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        device.destroy(stream);
    }

    // ---- native handles and adoption ----------------------------------------------------------

    /** @return the {@code ze_driver_handle_t}, {@code ze_context_handle_t} and {@code ze_device_handle_t}, borrowed */
    @Override
    public Map<String, MemorySegment> nativeHandles() {
        return handles;
    }

    /**
     * @param nativeStream an immediate command list ({@code zeCommandListCreateImmediate}) of this device, made
     *                     in the context {@link #nativeHandles()} names; Level Zero 1.4 cannot check either
     * @return {@code nativeStream}, now a stream of this device (NULL stays the default stream)
     */
    @Override
    public MemorySegment adoptStream(MemorySegment nativeStream) {
        return nativeStream.address() == 0 ? MemorySegment.NULL : device.adopt(nativeStream);
    }

    /** Synchronises and stops serving an adopted command list; destroys it ({@code zeCommandListDestroy}) if asked. */
    @Override
    public void forgetStream(MemorySegment stream, boolean destroy) {
        if (!stream.equals(MemorySegment.NULL) || destroy) {
            device.forget(stream, destroy);
        }
    }

    // ---- events: none of its own (no DeviceEvents); imported sycl::event* through registered waiters

    /** @return {@code syncEvent} itself, the {@code sycl::event*}, once a waiter is registered for it */
    @Override
    public MemorySegment eventFromSyncEvent(MemorySegment syncEvent) {
        SyclEventWaiters.waiterFor(syncEvent);
        return syncEvent;
    }

    @Override
    public void waitEvent(MemorySegment event) {
        SyclEventWaiters.waiterFor(event).await();
    }

    /** Level Zero cannot make a command list wait on a SYCL event: waits on the host instead. */
    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        SyclEventWaiters.waiterFor(event).await();
    }

    @Override
    public boolean isEventComplete(MemorySegment event) {
        return SyclEventWaiters.waiterFor(event).isComplete();
    }
}
