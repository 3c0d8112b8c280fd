package dev.quiver.share;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.spi.BackendDevice;

/**
 * How a session's arrays of one device travel as the driver's inter-process handles: the device the receiver
 * asked for (the same type, id and UUID), its backend, and the handle kind of the backend's mechanism, which
 * the receiver's HELLO said it imports, and whether an array's sync event travels as an inter-process event.
 * Immutable.
 *
 * @param device  the device
 * @param backend its backend
 * @param kind    the handle kind
 * @param events  whether the receiver opens events (its HELLO said so) and the device's events travel
 *                ({@link Device#interProcessMemory()}): an array's
 *                sync event then travels with its BATCH instead of being waited for on the owner's host
 */
record IpcRoute(Device device, BackendDevice backend, HandleKind kind, boolean events) {

    /** {@return whether {@code array} lies on this route's device} */
    boolean carries(DeviceArray array) {
        return array.deviceType() == device.type() && array.deviceId() == device.id();
    }
}
