package dev.quiver.cli.flight;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.stream.DeviceArrayStreams;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Iterator;

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
        Iterator<DeviceArray> batches = new MappedBatches(source, map);
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment out = scratch.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            DeviceArrayStreams.exportTo(batches, source.schema(), type, out);
            return DeviceArrayStream.importFrom(out);
        }
    }

    /** The source's batches through a function; closing closes the source. One thread at a time. */
    private record MappedBatches(DeviceArrayStream source, java.util.function.UnaryOperator<DeviceArray> map)
            implements Iterator<DeviceArray>, AutoCloseable {
        @Override
        public boolean hasNext() {
            return source.hasNext();
        }

        @Override
        public DeviceArray next() {
            return map.apply(source.next());
        }

        @Override
        public void close() {
            source.close();
        }
    }
}
