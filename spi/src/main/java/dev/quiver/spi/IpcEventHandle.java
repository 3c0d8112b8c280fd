package dev.quiver.spi;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * An event exported for another process ({@link IpcEvents#exportEvent}): the driver's opaque handle of an
 * event made for sharing ({@code CUipcEventHandle}, {@code hipIpcEventHandle_t}), and the mechanism that
 * made it. Immutable; the bytes are copied in and out.
 *
 * <p>A handle is not a reference: it keeps nothing alive. The exporting process keeps its event until every
 * peer destroyed what it opened; the peer opens it with {@link IpcEvents#openEvent} on a device of the
 * same mechanism.
 *
 * @param mechanism the device's {@link IpcMechanism}, one whose {@link IpcMechanism#eventHandleBytes()} is
 *                  more than zero
 * @param handle    the driver's opaque handle bytes, {@link IpcMechanism#eventHandleBytes()} long
 */
public record IpcEventHandle(IpcMechanism mechanism, byte[] handle) {

    /**
     * Checks the bytes against the mechanism and copies them.
     *
     * @throws IllegalArgumentException if the mechanism carries no events or the handle's length is not the
     *                                  mechanism's
     */
    public IpcEventHandle {
        if (mechanism == null || mechanism.eventHandleBytes() == 0) {
            throw new IllegalArgumentException("an IPC event handle needs a mechanism that carries events, not " + mechanism);
        }
        handle = HandleBytes.copyOf(mechanism, handle, mechanism.eventHandleBytes(), "event handles");
    }

    /** {@return a copy of the driver's handle bytes} */
    @Override
    public byte[] handle() {
        return handle.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpcEventHandle h && h.mechanism == mechanism && Arrays.equals(h.handle, handle);
    }

    @Override
    public int hashCode() {
        return mechanism.hashCode() * 31 + Arrays.hashCode(handle);
    }

    @Override
    public String toString() {
        return mechanism + " event[" + HexFormat.of().formatHex(handle) + "]";
    }
}
