package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.flight.FlightCompression;
import dev.quiver.host.ArrayReader;
import dev.quiver.type.Field;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compressed bodies through the codec and back, without gRPC, with each codec: every type of the Flight tests
 * (their small buffers mostly sent as they are, length -1, since compression does not shrink them) and a batch
 * whose buffers compress (sent compressed) beside one that does not (sent as it is). The headers carry the
 * codec, empty buffers are the 8-byte prefix 0, the values come back, the batch sent may be closed before its
 * messages are written, and every byte both sides allocated is freed.
 */
class WireCompressionTest {
    private final Device cpu = Devices.system().cpu();

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void everyTypeComesBackWithItsValues(FlightCompression compression) throws Exception {
        long inUse = cpu.memoryPool().stats().bytesInUse();
        byte codec = BufferCodec.of(compression).arrowType();
        List<DeviceArray> received = new ArrayList<>();
        try (FlightDataDecoder decoder = new FlightDataDecoder(cpu, "compressed round trip")) {
            assertNull(decoder.accept(WireBatches.read(WireBatches.bytes(FlightDataEncoder.schema(WireBatches.batch(0).field(), null)))));
            for (int b = 0; b < WireBatches.ROWS.size(); b++) {
                List<OutgoingMessage> messages;
                try (DeviceArray batch = WireBatches.batch(b).toDeviceArray()) {
                    messages = FlightDataEncoder.batch(batch, true, null, compression);
                }
                for (OutgoingMessage message : messages) {
                    byte[] bytes = WireBatches.bytes(message);
                    CompressedBodies.Wire wire = CompressedBodies.wire(bytes);
                    assertEquals(codec, wire.codec(), "BodyCompression.codec of batch " + b);
                    assertTrue(java.util.Arrays.stream(wire.lengths()).allMatch(length -> length >= 8), "every buffer has its prefix");
                    DeviceArray out = decoder.accept(WireBatches.read(bytes));
                    if (out != null) {
                        received.add(out);
                    }
                }
            }
        }
        try {
            WireBatches.assertCatalogue(received);
        } finally {
            received.forEach(DeviceArray::close);
        }
        assertEquals(inUse, cpu.memoryPool().stats().bytesInUse(), "CPU memory in use after every batch was closed");
    }

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void buffersThatShrinkAreCompressedAndTheOthersSentAsTheyAre(FlightCompression compression) throws Exception {
        long inUse = cpu.memoryPool().stats().bytesInUse();
        byte[] plain;
        byte[] compressed;
        try (DeviceArray batch = CompressedBodies.batch().toDeviceArray()) {
            plain = WireBatches.bytes(FlightDataEncoder.batch(batch, false, null).getFirst());
            compressed = WireBatches.bytes(FlightDataEncoder.batch(batch, false, null, compression).getFirst());
        }
        CompressedBodies.Wire wire = CompressedBodies.wire(compressed);
        assertTrue(wire.someCompressed(), "some buffer was compressed");
        assertTrue(wire.count(-1) >= 1, "the random column's values were sent as they are (-1)");
        assertTrue(wire.count(0) >= 1, "the absent validity buffers were sent as the prefix 0");
        assertTrue(compressed.length < plain.length / 2, compression + ": " + compressed.length + " bytes, " + plain.length + " plain");
        try (FlightDataDecoder decoder = new FlightDataDecoder(cpu, "compressible")) {
            decoder.accept(WireBatches.read(WireBatches.bytes(FlightDataEncoder.schema(CompressedBodies.batch().field(), null))));
            try (DeviceArray batch = decoder.accept(WireBatches.read(compressed))) {
                assertEquals(CompressedBodies.ROWS, batch.length());
                for (int c = 0; c < CompressedBodies.columns().size(); c++) {
                    Field column = CompressedBodies.columns().get(c);
                    try (DeviceArray values = batch.child(c)) {
                        assertEquals(CompressedBodies.values(column), ArrayReader.of(values).values(), column.name());
                    }
                }
            }
        }
        assertEquals(inUse, cpu.memoryPool().stats().bytesInUse(), "CPU memory in use after the batches were closed");
    }

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void aMessageClosedUnwrittenFreesItsCompressedBody(FlightCompression compression) {
        long inUse = cpu.memoryPool().stats().bytesInUse();
        try (DeviceArray batch = CompressedBodies.batch().toDeviceArray()) {
            List<OutgoingMessage> messages = FlightDataEncoder.batch(batch, false, null, compression);
            assertTrue(cpu.memoryPool().stats().bytesInUse() > inUse, "the compressed body is allocated");
            messages.forEach(OutgoingMessage::close);
        }
        assertEquals(inUse, cpu.memoryPool().stats().bytesInUse(), "CPU memory in use after the messages were closed");
    }
}
