package dev.quiver.cli.flight;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.stream.DeviceArrayStream;


/**
 * A stream whose batches are copied to a device as they are pulled, or that counts them as they pass. The
 * result takes the source stream (closing it closes the source) and is pulled by one thread at a time.
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
        return mapped(source, device.type(), batch -> {
            try (batch) {
                return batch.copyTo(device);
            }
        });
    }

    /**
     * @param source  the stream; owned by the result
     * @param counted told of each batch before it is handed on
     * @return the same batches, owned by the caller
     */
    static DeviceArrayStream counted(DeviceArrayStream source, java.util.function.Consumer<DeviceArray> counted) {
        return mapped(source, source.deviceType(), batch -> {
            counted.accept(batch);
            return batch;
        });
    }

    private static DeviceArrayStream mapped(DeviceArrayStream source, DeviceType type, java.util.function.UnaryOperator<DeviceArray> map) {
        return source.map(source.schema(), type, map);
    }
}
