package dev.quiver.internal.backend;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.EventWaits;

import java.lang.foreign.MemorySegment;

/**
 * A device's {@link DeviceEvents} (or its {@link EventWaits} alone) behind the checks of its
 * {@link CheckedBackendDevice}: no NULL where an event is required, and no event or stream that another
 * device's view made or adopted. Where the device only waits on a producer's events, the waits are forwarded
 * unchecked, so that the backend answers as its contract says. Failures are {@link IllegalArgumentException}s
 * thrown before the backend is called; the backend's own failures become the API's exceptions as the device
 * view's do.
 *
 * <p>Keeps the table of the events made, recorded, opened or adopted through it, so that the views can tell
 * whose an event is; owns none of them: they are the caller's, as {@link DeviceEvents} says. Thread-safe as the
 * backend is; the table takes short locks.
 */
final class CheckedEvents implements DeviceEvents {
    private final EventWaits waits;
    /** The backend's events, or null where it only waits on a producer's. */
    private final DeviceEvents events;
    private final CheckedBackendDevice view;
    private final HandleTable table = new HandleTable();

    private CheckedEvents(EventWaits waits, DeviceEvents events, CheckedBackendDevice view) {
        this.waits = waits;
        this.events = events;
        this.view = view;
    }

    /** {@return the checked events of {@code backend}, or null where it neither makes nor waits on events} */
    static CheckedEvents of(BackendDevice backend, CheckedBackendDevice view) {
        DeviceEvents events = backend.capability(DeviceEvents.class).orElse(null);
        EventWaits waits = events != null ? events : backend.capability(EventWaits.class).orElse(null);
        return waits == null ? null : new CheckedEvents(waits, events, view);
    }

    /** {@return whether the device makes events, not only waits on a producer's} */
    boolean makesEvents() {
        return events != null;
    }

    /** {@return whether an event made, opened or adopted through this view is live at {@code address}} */
    boolean holds(long address) {
        return table.get(address) != HandleTable.ABSENT;
    }

    /** Notes a live event made through this view (here, or by its inter-process events). */
    MemorySegment track(MemorySegment event) {
        table.put(event.address(), 0);
        return event;
    }

    @Override
    public MemorySegment createEvent() {
        try {
            return track(events.createEvent());
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        try {
            checkEvent(event);
            view.checkStream(stream);
            events.recordEvent(event, stream);
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public MemorySegment recordNewEvent(MemorySegment stream) {
        try {
            view.checkStream(stream);
            return track(events.recordNewEvent(stream));
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public void waitEvent(MemorySegment event) {
        try {
            checkEventIfMade(event);
            waits.waitEvent(event);
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        try {
            if (events != null) {
                view.checkStream(stream);
                checkEvent(event);
            }
            waits.streamWaitEvent(stream, event);
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public boolean isEventComplete(MemorySegment event) {
        try {
            checkEventIfMade(event);
            return waits.isEventComplete(event);
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        try {
            checkEvent(event);
            table.remove(event.address());
            events.destroyEvent(event);
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public MemorySegment eventFromSyncEvent(MemorySegment syncEvent) {
        try {
            if (events != null) {
                CheckedBackendDevice.requireHandle("syncEvent", syncEvent);
            }
            return waits.eventFromSyncEvent(syncEvent);
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public MemorySegment adoptEvent(MemorySegment nativeEvent) {
        try {
            CheckedBackendDevice.requireHandle("nativeEvent", nativeEvent);
            view.checkForeign(HandleKind.EVENT, "nativeEvent", nativeEvent.address());
            return track(events.adoptEvent(nativeEvent));
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public void forgetEvent(MemorySegment event, boolean destroy) {
        try {
            checkEvent(event);
            table.remove(event.address());
            events.forgetEvent(event, destroy);
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    /** Checks an event where the device makes events; a device that only waits decides by itself. */
    private void checkEventIfMade(MemorySegment event) {
        if (events != null) {
            checkEvent(event);
        }
    }

    /** Checks that an event is given and is not another device's. */
    void checkEvent(MemorySegment event) {
        CheckedBackendDevice.requireHandle("event", event);
        long address = event.address();
        if (address >= CheckedBackendDevice.SMALLEST_ADDRESS && !holds(address)) {
            view.checkForeign(HandleKind.EVENT, "event", address);
        }
    }

    @Override
    public String toString() {
        return "events of " + view;
    }
}
