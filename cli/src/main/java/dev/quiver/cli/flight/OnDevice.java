package dev.quiver.cli.flight;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.stream.DeviceArrayStream;


/**
 * A stream whose batches are copied to a device as they are pulled. The result takes the source stream
 * (closing it closes the source) and is pulled by one thread at a time.
 */
final class OnDevice {
    private OnDevice() {}

    /**
     * @param source the stream; owned by the result
     * @param device where each batch goes (a CPU source going to the CPU is passed through)
     * @return the stream on {@code device}, owned by the caller
     */
    static DeviceArrayStream copied(DeviceArrayStream source, Device device) {
        if (device.type().equals(source.deviceType()) && device.type().equals(DeviceType.CPU)) {
            return source;
        }
        return source.map(source.schema(), device.type(), batch -> {
            try (batch) {
                return Copies.toDevice(batch, device);
            }
        });
    }
}
