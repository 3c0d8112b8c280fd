package dev.quiver.internal.backend;

import dev.quiver.spi.DeviceException;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcEventHandle;
import dev.quiver.spi.IpcEvents;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.IpcMemoryHandle;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A device's {@link IpcMemory} and {@link IpcEvents} behind the checks of its {@link CheckedBackendDevice}: a
 * non-NULL pointer and a non-negative offset to export, a handle to open, a stream and an event that are not
 * another device's. The view hands this out as either capability only where the backend offers it. Events made
 * or opened here join the view's table of events, so that its {@link CheckedEvents} accepts and destroys them.
 * Failures are {@link IllegalArgumentException}s thrown before the backend is called; the backend's own
 * failures become the API's exceptions as the device view's do.
 *
 * <p>Owns nothing: what it returns is the caller's, as the two capabilities say. Thread-safe as the backend is.
 */
final class CheckedIpc implements IpcMemory, IpcEvents {
    /** The backend's capabilities, each null where it lacks it. */
    private final IpcMemory memory;
    private final IpcEvents ipcEvents;
    /** The view's checked events, null where the device has none (and so no inter-process events). */
    private final CheckedEvents events;
    private final CheckedBackendDevice view;

    CheckedIpc(IpcMemory memory, IpcEvents ipcEvents, CheckedEvents events, CheckedBackendDevice view) {
        this.memory = memory;
        this.ipcEvents = events == null || !events.makesEvents() ? null : ipcEvents;
        this.events = events;
        this.view = view;
    }

    /** {@return whether the backend offers {@link IpcMemory}} */
    boolean offersMemory() {
        return memory != null;
    }

    /** {@return whether the backend offers {@link IpcEvents} (and the events they need)} */
    boolean offersEvents() {
        return ipcEvents != null;
    }

    @Override
    public IpcMechanism ipcMechanism() {
        return memory.ipcMechanism();
    }

    @Override
    public IpcMemoryHandle exportMemory(MemorySegment pointer, long offset) {
        try {
            CheckedBackendDevice.requireHandle("pointer", pointer);
            DeviceArguments.nonNegative("offset", offset);
            return memory.exportMemory(pointer, offset);
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public ImportedMemory openMemory(IpcMemoryHandle handle) {
        try {
            Objects.requireNonNull(handle, "handle");
            return memory.openMemory(handle);
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public MemorySegment createInterProcessEvent() {
        try {
            return events.track(ipcEvents.createInterProcessEvent());
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public MemorySegment recordInterProcessEvent(MemorySegment stream) {
        try {
            view.checkStream(stream);
            return events.track(ipcEvents.recordInterProcessEvent(stream));
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public IpcEventHandle exportEvent(MemorySegment event) {
        try {
            events.checkEvent(event);
            return ipcEvents.exportEvent(event);
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public MemorySegment openEvent(IpcEventHandle handle) {
        try {
            Objects.requireNonNull(handle, "handle");
            return events.track(ipcEvents.openEvent(handle));
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public String toString() {
        return "inter-process memory and events of " + view;
    }
}
