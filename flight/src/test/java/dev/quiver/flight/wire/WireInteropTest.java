package dev.quiver.flight.wire;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.flight.ipc.ArrowIpcReading;
import dev.quiver.flight.ipc.ArrowIpcWriting;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The codec speaks the format Arrow Java speaks, message by message, both ways, with every type of the Flight
 * tests (dictionaries included): the FlightData bytes the codec writes are parsed by Arrow's own generated
 * protobuf class and their IPC messages read by Arrow Java's stream reader ({@code ArrowStreamReader}) into the
 * catalogue's values; and the IPC messages Arrow Java's stream writer ({@code ArrowStreamWriter}) writes, put in
 * FlightData by Arrow's protobuf class, are read and decoded by the codec into the same values.
 */
class WireInteropTest {

    @Test
    void arrowJavaReadsWhatTheCodecWrites() throws Exception {
        Field schema = WireBatches.batch(0).field();
        List<byte[]> flightData = new ArrayList<>();
        flightData.add(WireBatches.bytes(FlightDataEncoder.schema(schema, null)));
        for (int b = 0; b < WireBatches.ROWS.size(); b++) {
            try (DeviceArray batch = WireBatches.batch(b).toDeviceArray()) {
                for (OutgoingMessage message : FlightDataEncoder.batch(batch, b == 0, null)) {
                    flightData.add(WireBatches.bytes(message));
                }
            }
        }
        List<DeviceArray> read = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            try (DeviceArrayStream stream = ArrowIpcReading.stream(new ByteArrayInputStream(IpcStreamFrames.toIpcStream(flightData)), allocator)) {
                while (stream.hasNext()) {
                    read.add(stream.next());
                }
                WireBatches.assertCatalogue(read);
            } finally {
                read.forEach(DeviceArray::close);
            }
        }
    }

    @Test
    void theCodecReadsWhatArrowJavaWrites() throws Exception {
        Field schema = WireBatches.batch(0).field();
        ByteArrayOutputStream ipc = new ByteArrayOutputStream();
        try (BufferAllocator allocator = new RootAllocator()) {
            DeviceArrayStream batches = DeviceArrayStream.of(schema, DeviceType.CPU,
                    IntStream.range(0, WireBatches.ROWS.size()).mapToObj(b -> WireBatches.batch(b).toDeviceArray()));
            assertEquals(WireBatches.ROWS.size(), ArrowIpcWriting.stream(batches, ipc, allocator));
        }
        List<DeviceArray> decoded = new ArrayList<>();
        try (FlightDataDecoder decoder = new FlightDataDecoder(Devices.system().cpu(), "Arrow Java's stream")) {
            for (byte[] message : IpcStreamFrames.toFlightData(new ByteArrayInputStream(ipc.toByteArray()))) {
                DeviceArray batch = decoder.accept(WireBatches.read(message));
                if (batch != null) {
                    decoded.add(batch);
                }
            }
        }
        try {
            WireBatches.assertCatalogue(decoded);
        } finally {
            decoded.forEach(DeviceArray::close);
        }
    }
}
