package dev.quiver;

import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.backend.Capabilities;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.EventWaits;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * A device event, as the {@code sync_event} of an ArrowDeviceArray carries it: {@link #pointer()} is a
 * pointer to the event (a {@code cudaEvent_t*}, {@code cl_event*}, {@code VkEvent*}, ...) and
 * {@link #handle()} the event itself. Its methods may be called from any thread.
 *
 * <p><b>Ownership.</b> An event is one of two kinds:
 * <ul>
 *   <li><em>borrowed</em>: an array's {@code sync_event} ({@link DeviceArray#syncEvent()}), owned by the
 *       array's producer and freed by the array's release; usable while the array is open; closing it does
 *       nothing; or an event adopted with {@link Device#adoptEvent} and {@code owned} false, which closing
 *       only forgets;</li>
 *   <li><em>owned</em>: recorded with {@link DeviceStream#recordEvent()} or adopted with {@code owned} true.
 *       The caller closes it exactly once (destroying the native event), or moves it into an array with
 *       {@link ArrayBuilder#syncEvent(SyncEvent)}, whose release then destroys it. An owned event that
 *       becomes unreachable without either is reported as a leak.</li>
 * </ul>
 *
 * <p>Importing never waits: a consumer chooses to {@link #waitOnHost() wait on the host}, to
 * make a stream wait ({@link DeviceStream#waitFor}) on the device, or to take {@link #pointer()} itself.
 */
public final class SyncEvent implements AutoCloseable {
    private final DeviceType type;
    private final long deviceId;
    private final MemorySegment pointer;
    private final Supplier<BackendDevice> backend;
    private final BooleanSupplier live;
    private final Ownership ownership;
    private final boolean ownsEvent;

    private SyncEvent(DeviceType type, long deviceId, MemorySegment pointer, Supplier<BackendDevice> backend,
                      BooleanSupplier live, Runnable release, boolean ownsEvent) {
        this.type = type;
        this.deviceId = deviceId;
        this.pointer = pointer;
        this.backend = backend;
        this.ownsEvent = ownsEvent;
        this.ownership = release == null ? null
                : new Ownership(this, release, "SyncEvent " + type + ":" + deviceId, "SyncEvent");
        this.live = ownership == null ? live : ownership::isOpen;
    }

    /** The {@code sync_event} of an array, borrowed while the array is live. */
    static SyncEvent ofArray(DeviceType type, long deviceId, MemorySegment pointer, Supplier<BackendDevice> backend,
                             BooleanSupplier live) {
        return new SyncEvent(type, deviceId, pointer, backend, live, null, false);
    }

    /**
     * An event handle of {@code device} held in a new native slot, so that {@link #pointer()} is a pointer
     * to it. {@code release} runs once on close (destroying an owned event, forgetting a borrowed one);
     * only an owned event can move into an array.
     */
    static SyncEvent ofHandle(DeviceType type, long deviceId, BackendDevice backend, MemorySegment handle, Runnable release,
                              boolean owned) {
        MemorySegment slot = NativeHeap.calloc(ADDRESS.byteSize());
        slot.set(ADDRESS, 0, handle);
        Runnable destroyThenFree = () -> {
            try {
                release.run();
            } finally {
                NativeHeap.free(slot);
            }
        };
        return new SyncEvent(type, deviceId, slot, () -> backend, null, destroyThenFree, owned);
    }

    /** {@return the device type whose event type this is} */
    public DeviceType deviceType() {
        return type;
    }

    /** {@return the device id of the event's device (-1 where the type has one device)} */
    public long deviceId() {
        return deviceId;
    }

    /**
     * {@return the pointer to the event, as an ArrowDeviceArray's {@code sync_event} holds it; borrowed,
     * valid while this event is usable}
     */
    public MemorySegment pointer() {
        checkLive();
        return pointer;
    }

    /**
     * {@return the native event (a {@code CUevent}, {@code cl_event}, {@code VkEvent}, ...), borrowed: never
     * release it yourself}
     */
    public MemorySegment handle() {
        return Capabilities.waits(device()).eventFromSyncEvent(pointer);
    }

    /** {@return true for events this object owns (see "Ownership" above)} */
    public boolean isOwned() {
        return ownsEvent;
    }

    /** Blocks the calling thread until the event completes. */
    public void waitOnHost() {
        EventWaits device = Capabilities.waits(device());
        device.waitEvent(device.eventFromSyncEvent(pointer));
    }

    /** Makes future work on {@code stream}, a stream handle of this event's device, wait for the event. */
    void makeWait(MemorySegment stream) {
        EventWaits device = Capabilities.waits(device());
        device.streamWaitEvent(stream, device.eventFromSyncEvent(pointer));
    }

    /** {@return true if the event has completed; never blocks} */
    public boolean isComplete() {
        EventWaits device = Capabilities.waits(device());
        return device.isEventComplete(device.eventFromSyncEvent(pointer));
    }

    /**
     * Destroys an owned event (after which it must no longer be used), or forgets a borrowed adopted one;
     * does nothing for an array's event. Idempotent; any thread.
     */
    @Override
    public void close() {
        if (ownership != null) {
            ownership.close();
        }
    }

    /**
     * Moves an owned event into an array being built: afterwards this object is spent, and the returned
     * action (run once by the array's release) destroys the event and frees its slot.
     */
    Runnable moveOut() {
        if (!isOwned()) {
            throw new IllegalArgumentException("only an owned event (DeviceStream.recordEvent, Device.adoptEvent(..., true)) moves into an array; this one is borrowed");
        }
        return ownership.moveOut();
    }

    /** Checks that this is an open, owned event that can move into an array; {@code path} names it. */
    void checkMovable(String path) {
        if (!isOwned()) {
            throw new IllegalArgumentException(path + " is borrowed (an array's event, or adopted with owned false); record or adopt an owned one");
        }
        if (!ownership.isOpen()) {
            throw new IllegalArgumentException(path + " is " + ownership.stateName() + ": " + ownership.description());
        }
    }

    private BackendDevice device() {
        checkLive();
        return backend.get();
    }

    private void checkLive() {
        if (ownership != null) {
            ownership.checkOpen();
        } else if (!live.getAsBoolean()) {
            throw new IllegalStateException("the array owning this " + type + " sync event is closed");
        }
    }

    @Override
    public String toString() {
        return "SyncEvent[" + type + ":" + deviceId + (ownership == null ? ", of an array" : isOwned() ? ", owned" : ", borrowed") + "]";
    }
}
