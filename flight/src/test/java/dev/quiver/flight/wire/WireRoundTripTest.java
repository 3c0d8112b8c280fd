package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every type of the Flight tests through the codec and back, without gRPC: each message is encoded from the
 * batch's memory, drained to bytes and read into CPU memory, then decoded and checked; the values that come out
 * are the catalogue's, the schema is the one sent, and every byte of memory the decoding allocated is freed
 * once the batches are closed.
 */
class WireRoundTripTest {
    private final Device cpu = Devices.system().cpu();

    @Test
    void everyTypeComesBackWithItsValues() throws Exception {
        long inUse = cpu.memoryPool().stats().bytesInUse();
        List<DeviceArray> received = new ArrayList<>();
        try (FlightDataDecoder decoder = new FlightDataDecoder(cpu, "round trip")) {
            Field schema = WireBatches.batch(0).field();
            assertNull(decoder.accept(WireBatches.read(WireBatches.bytes(FlightDataEncoder.schema(schema, null)))));
            assertEquals(schema.children().size(), decoder.schema().children().size(), "columns of the schema");
            for (int b = 0; b < WireBatches.ROWS.size(); b++) {
                try (DeviceArray batch = WireBatches.batch(b).toDeviceArray()) {
                    for (OutgoingMessage message : FlightDataEncoder.batch(batch, true, null)) {
                        DeviceArray out = decoder.accept(WireBatches.read(WireBatches.bytes(message)));
                        if (out != null) {
                            received.add(out);
                        }
                    }
                }
            }
            for (int c = 0; c < schema.children().size(); c++) {
                Field sent = schema.children().get(c);
                Field got = decoder.schema().children().get(c);
                assertEquals(sent.name(), got.name());
                assertEquals(sent.type(), got.type(), sent.name());
                assertEquals(sent.metadata().toMap(), got.metadata().toMap(), sent.name());
                assertEquals(sent.dictionary() == null, got.dictionary() == null, sent.name());
            }
        }
        try {
            WireBatches.assertCatalogue(received);
        } finally {
            received.forEach(DeviceArray::close);
        }
        assertEquals(inUse, cpu.memoryPool().stats().bytesInUse(), "CPU memory in use after every batch was closed");
    }

    @Test
    void batchesOutliveTheDecoderAndTheSentBatch() throws Exception {
        DeviceArray received;
        try (FlightDataDecoder decoder = new FlightDataDecoder(cpu, "outlive")) {
            decoder.accept(WireBatches.read(WireBatches.bytes(FlightDataEncoder.schema(WireBatches.batch(0).field(), null))));
            List<OutgoingMessage> messages;
            try (DeviceArray batch = WireBatches.batch(0).toDeviceArray()) {
                messages = FlightDataEncoder.batch(batch, true, new byte[] {1, 2, 3});
            }
            received = null;
            for (OutgoingMessage message : messages) {
                received = decoder.accept(WireBatches.read(WireBatches.bytes(message)));
            }
        }
        try (DeviceArray batch = received) {
            assertTrue(batch != null);
            List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>();
            WireBatches.compare(batch, 0, checks);
            org.junit.jupiter.api.Assertions.assertAll(checks);
        }
    }
}
