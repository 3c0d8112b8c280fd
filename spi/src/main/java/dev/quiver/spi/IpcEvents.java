package dev.quiver.spi;

import java.lang.foreign.MemorySegment;

/**
 * A device capability: events another process may wait on ({@code cuIpcGetEventHandle},
 * {@code hipIpcGetEventHandle}). Found with {@code device.capability(IpcEvents.class)}. A device that offers
 * it also offers {@link DeviceEvents}, which destroys, records and waits on these events, and
 * {@link IpcMemory}, whose {@link IpcMemory#ipcMechanism()} has an {@link IpcMechanism#eventHandleBytes()}
 * more than zero; the handles are of that mechanism.
 *
 * <p><b>Ownership.</b> The caller owns what {@link #createInterProcessEvent}, {@link #recordInterProcessEvent}
 * and {@link #openEvent} return and destroys it exactly once with {@link DeviceEvents#destroyEvent}. The
 * exporter destroys its event only after every peer destroyed what it opened from the event's handle (drivers
 * leave a peer's use of an event whose owner destroyed it undefined); destroying an opened event never
 * destroys the exporter's. Such events are never taken from or given to a pool of ordinary events.
 *
 * <p><b>Threading.</b> All methods may be called from any thread, concurrently; an opened event may be waited
 * on from any thread, and a wait on it returns once the exporter's latest record made before the wait
 * completed.
 */
public interface IpcEvents extends DeviceCapability {

    /**
     * Makes a new event that another process may wait on, not yet recorded ({@code cuEventCreate} with
     * {@code CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING}, and its like).
     *
     * @return the new event, owned by the caller
     * @throws DeviceException if the driver fails
     */
    MemorySegment createInterProcessEvent();

    /**
     * Makes a new event that another process may wait on, and records it on {@code stream}: it completes when
     * the work enqueued so far does. It may be recorded again, and a peer's wait then waits for the latest
     * record made before the wait was enqueued.
     *
     * @param stream a stream of this device
     * @return the new event, recorded, owned by the caller
     * @throws DeviceException if the driver fails; nothing is left to destroy then
     */
    MemorySegment recordInterProcessEvent(MemorySegment stream);

    /**
     * Exports an event for another process, so that the peer's stream can wait for work of this process.
     * Exporting gives nothing new to release; the event stays the caller's.
     *
     * @param event an event of this device made by {@link #recordInterProcessEvent} or
     *              {@link #createInterProcessEvent}
     * @return the driver's handle
     * @throws DeviceException if the driver refuses the event (one not made for sharing); the message names
     *                         the driver call
     */
    IpcEventHandle exportEvent(MemorySegment event);

    /**
     * Opens an event that another process exported with {@link #exportEvent}, on this device. The result is
     * an event handle that {@link EventWaits#waitEvent}, {@link EventWaits#streamWaitEvent} and
     * {@link EventWaits#isEventComplete} accept, as a local event made without timing would be.
     *
     * @param handle a handle made by another process
     * @return the opened event, owned by the caller, destroyed before the exporter destroys its own
     * @throws IllegalArgumentException if the handle is of another mechanism (checked before any driver call)
     * @throws DeviceException          if the driver refuses the handle (bytes it never made, an exporter gone,
     *                                  a handle of this same process); the message names the driver call
     */
    MemorySegment openEvent(IpcEventHandle handle);
}
