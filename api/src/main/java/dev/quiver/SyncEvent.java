package dev.quiver;

import dev.quiver.spi.BackendDevice;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The {@code sync_event} of a device array: a pointer to the event (a {@code cudaEvent_t*},
 * {@code cl_event*}, ...) that completes when the array's data is ready. The event is owned by the array's
 * producer and freed by the array's release; this object borrows it and is usable until the array is
 * closed. Its methods may be called from any thread.
 *
 * <p>Importing never waits: a consumer chooses to {@link #waitOnHost() wait on the host}, to
 * {@link #makeWait(DeviceStream) make a stream wait}, or to take {@link #pointer()} itself.
 */
public final class SyncEvent {
    private final DeviceType type;
    private final MemorySegment pointer;
    private final Supplier<BackendDevice> backend;
    private final BooleanSupplier live;

    SyncEvent(DeviceType type, MemorySegment pointer, Supplier<BackendDevice> backend, BooleanSupplier live) {
        this.type = type;
        this.pointer = pointer;
        this.backend = backend;
        this.live = live;
    }

    /** @return the device type whose event type this is */
    public DeviceType deviceType() {
        return type;
    }

    /** @return the {@code sync_event} pointer (a pointer to the event), borrowed */
    public MemorySegment pointer() {
        return pointer;
    }

    /** Blocks the calling thread until the event completes. */
    public void waitOnHost() {
        BackendDevice device = device();
        device.waitEvent(device.eventFromSyncEvent(pointer));
    }

    /**
     * Makes future work on {@code stream} wait for the event, without blocking the host.
     *
     * @param stream a stream of the array's device
     */
    public void makeWait(DeviceStream stream) {
        BackendDevice device = device();
        device.streamWaitEvent(stream.handle(), device.eventFromSyncEvent(pointer));
    }

    /** @return true if the event has completed; never blocks */
    public boolean isComplete() {
        BackendDevice device = device();
        return device.isEventComplete(device.eventFromSyncEvent(pointer));
    }

    private BackendDevice device() {
        if (!live.getAsBoolean()) {
            throw new IllegalStateException("the array owning this " + type + " sync event is closed");
        }
        return backend.get();
    }
}
