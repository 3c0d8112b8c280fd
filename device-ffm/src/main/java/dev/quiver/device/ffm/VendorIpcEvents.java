package dev.quiver.device.ffm;

import dev.quiver.spi.IpcMechanism;

import java.lang.foreign.MemorySegment;

/**
 * A vendor's inter-process event calls, bound to one device (its context or ordinal): what a
 * {@link VendorDevice} offers through {@code createInterProcessEvent} (and so {@code recordInterProcessEvent}),
 * {@code exportEvent} and {@code openEvent}. The device checks handles and moves their bytes; these are the bare driver calls, each
 * made with the device current. Implementations are immutable and thread-safe.
 */
public interface VendorIpcEvents {
    /** {@return the mechanism, the device's own, with {@link IpcMechanism#eventHandleBytes()} more than zero} */
    IpcMechanism mechanism();

    /**
     * Makes a new event for sharing ({@code cuEventCreate} with {@code CU_EVENT_INTERPROCESS |
     * CU_EVENT_DISABLE_TIMING}, ...), not recorded, never from a pool.
     *
     * @return the event, owned by the caller, destroyed with the device's {@code destroyEvent}
     */
    MemorySegment create();

    /**
     * Writes an event's handle ({@code cuIpcGetEventHandle}, ...).
     *
     * @param event  an event {@link #create()} made
     * @param handle where the handle goes, {@link IpcMechanism#eventHandleBytes()} bytes
     */
    void export(MemorySegment event, MemorySegment handle);

    /**
     * Opens a peer's handle ({@code cuIpcOpenEventHandle}, ...).
     *
     * @param handle the handle's bytes in native memory, {@link IpcMechanism#eventHandleBytes()} of them
     * @return the opened event, owned by the caller, destroyed with the device's {@code destroyEvent}
     */
    MemorySegment open(MemorySegment handle);
}
