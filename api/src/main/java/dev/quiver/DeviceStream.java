package dev.quiver;

import dev.quiver.internal.backend.Capabilities;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceEvents;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A stream of a device: an ordered queue of copies, kernels and event operations (a {@code CUstream}, an
 * OpenCL command queue, ...).
 *
 * <p><b>Ownership.</b> Streams from {@link Device#createStream()} are owned by the caller, who closes them
 * once, from any thread; closing destroys the native stream after its pending work completes. The default
 * stream is borrowed and closing it does nothing. A stream adopted with {@link Device#adoptStream} wraps a
 * native stream made outside Quiver: closing it forgets the adoption and, if it was adopted as owned,
 * releases the native stream as the vendor API does.
 *
 * <p><b>Threading.</b> A stream is not meant for concurrent use by several threads; closing it while
 * another thread enqueues work on it is the caller's race to avoid.
 */
public final class DeviceStream implements AutoCloseable {
    private enum Kind { DEFAULT, CREATED, ADOPTED_OWNED, ADOPTED_BORROWED }

    private final Device device;
    private final MemorySegment handle;
    private final Kind kind;
    private final AtomicBoolean closed = new AtomicBoolean();

    private DeviceStream(Device device, MemorySegment handle, Kind kind) {
        this.device = device;
        this.handle = handle;
        this.kind = kind;
    }

    static DeviceStream defaultOf(Device device) {
        return new DeviceStream(device, device.backend().defaultStream(), Kind.DEFAULT);
    }

    static DeviceStream created(Device device) {
        return new DeviceStream(device, device.backend().createStream(), Kind.CREATED);
    }

    static DeviceStream adopted(Device device, MemorySegment nativeStream, boolean owned) {
        Objects.requireNonNull(nativeStream, "nativeStream");
        MemorySegment handle = Capabilities.adoption(device.backend()).adoptStream(nativeStream);
        return new DeviceStream(device, handle, owned ? Kind.ADOPTED_OWNED : Kind.ADOPTED_BORROWED);
    }

    /** {@return the device the stream belongs to} */
    public Device device() {
        return device;
    }

    /** {@return the native stream handle, as the backend's package documentation describes it; borrowed} */
    public MemorySegment handle() {
        checkOpen();
        return handle;
    }

    /** Blocks until all work enqueued on this stream is complete. */
    public void synchronize() {
        checkOpen();
        device.backend().synchronizeStream(handle);
    }

    /**
     * Records a new event on this stream: it completes when the work enqueued so far does. The event is
     * owned by the caller, who closes it or moves it into an array ({@link ArrayBuilder#syncEvent}).
     *
     * @return the new, owned event
     * @throws UnsupportedOperationException if the device has no events (the CPU)
     */
    public SyncEvent recordEvent() {
        checkOpen();
        BackendDevice backend = device.backend();
        DeviceEvents events = backend.capability(DeviceEvents.class).orElseThrow(() ->
                new UnsupportedOperationException(device + " has no events; its work completes before calls return"));
        MemorySegment event = events.recordNewEvent(handle);
        return SyncEvent.ofHandle(device.type(), device.id(), backend, event, () -> events.destroyEvent(event), true);
    }

    /**
     * Makes future work on this stream wait for {@code event} on the device, without blocking the host.
     *
     * @param event an event of this stream's device
     * @throws IllegalArgumentException if the event belongs to another device
     */
    public void waitFor(SyncEvent event) {
        Objects.requireNonNull(event, "event");
        if (!device.type().equals(event.deviceType()) || device.id() != event.deviceId()) {
            throw new IllegalArgumentException("an event of " + event.deviceType() + ":" + event.deviceId() + " cannot order a stream of "
                    + device.type() + ":" + device.id() + "; wait on the host (waitOnHost) or copy the array first");
        }
        event.makeWait(handle);
    }

    /**
     * Destroys a created stream, or forgets an adopted one (releasing the native stream if it was adopted
     * as owned), after its work completes; does nothing for the default stream, or the second time.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        switch (kind) {
            case DEFAULT -> { }
            case CREATED -> device.backend().destroyStream(handle);
            case ADOPTED_OWNED -> Capabilities.adoption(device.backend()).forgetStream(handle, true);
            case ADOPTED_BORROWED -> Capabilities.adoption(device.backend()).forgetStream(handle, false);
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("stream of " + device + " is closed");
        }
    }

    @Override
    public String toString() {
        return "DeviceStream[" + device.type() + ":" + device.id() + ", " + kind.name().toLowerCase().replace('_', ' ')
                + (closed.get() ? ", closed" : "") + "]";
    }
}
