package dev.quiver.share;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.spi.BackendDevice;

/**
 * How a session's arrays of one device travel as the driver's inter-process handles: the device the receiver
 * asked for (the same type, id and UUID), its backend, and the handle kind of the backend's mechanism, which
 * the receiver's HELLO said it imports. Immutable.
 *
 * @param device  the device
 * @param backend its backend
 * @param kind    the handle kind
 */
record IpcRoute(Device device, BackendDevice backend, HandleKind kind) {
    /** {@return whether {@code array} lies on this route's device} */
    boolean carries(DeviceArray array) {
        return array.deviceType() == device.type() && array.deviceId() == device.id();
    }
}
