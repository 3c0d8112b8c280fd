package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.flight.InvalidFlightDataException;
import dev.quiver.host.ArrayReader;
import io.grpc.KnownLength;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile FlightData is refused with an error that names the message, the field and the rule, before anything
 * is built over it, and nothing it made leaks: the CPU memory in use is the same after each refusal as before
 * (the body allocated for it was freed). The valid message of {@link HostileMessages} decodes, so each case
 * changes exactly what it names.
 */
class WireHostileTest {
    private final Device cpu = Devices.system().cpu();
    private long inUse;
    private FlightDataDecoder decoder;

    @BeforeEach
    void schemaArrived() throws IOException {
        inUse = cpu.memoryPool().stats().bytesInUse();
        decoder = new FlightDataDecoder(cpu, "hostile stream");
        decoder.accept(WireBatches.read(WireBatches.bytes(FlightDataEncoder.schema(HostileMessages.SCHEMA, null))));
    }

    @AfterEach
    void nothingLeaked() {
        decoder.close();
        assertEquals(inUse, cpu.memoryPool().stats().bytesInUse(), "CPU memory in use after the refusal");
    }

    private String refused(byte[] header, byte[] body) {
        return assertThrows(InvalidFlightDataException.class,
                () -> decoder.accept(WireBatches.read(HostileMessages.flightData(header, body)))).getMessage();
    }

    private static byte[] header(long[][] buffers) {
        return HostileMessages.header(2, HostileMessages.NODES, buffers);
    }

    @Test
    void theValidMessageDecodes() {
        try (DeviceArray batch = decoder.accept(WireBatches.read(HostileMessages.flightData(header(HostileMessages.BUFFERS), HostileMessages.body())));
             DeviceArray column = batch.child(0)) {
            assertEquals(List.of("a", "b"), ArrayReader.of(column).values());
        }
    }

    @Test
    void aBufferPastTheBodyIsRefused() {
        String message = refused(header(new long[][] {{0, 0}, {0, 12}, {16, 100}}), HostileMessages.body());
        assertTrue(message.contains("batch 0") && message.contains("buffers[2]") && message.contains("not inside the body of 24 bytes"), message);
    }

    @Test
    void aNegativeLengthIsRefused() {
        String message = refused(header(new long[][] {{0, 0}, {0, -8}, {16, 2}}), HostileMessages.body());
        assertTrue(message.contains("buffers[1]") && message.contains("length -8"), message);
        String node = refused(HostileMessages.header(2, new long[][] {{-2, 0}}, HostileMessages.BUFFERS), HostileMessages.body());
        assertTrue(node.contains("nodes[0]") && node.contains("length -2"), node);
    }

    @Test
    void aMisalignedBufferIsRefused() {
        String message = refused(header(new long[][] {{0, 0}, {0, 12}, {12, 2}}), HostileMessages.body());
        assertTrue(message.contains("buffers[2]") && message.contains("not a multiple of 8"), message);
    }

    @Test
    void aTruncatedBodyIsRefused() {
        byte[] whole = HostileMessages.flightData(header(HostileMessages.BUFFERS), HostileMessages.body());
        String message = assertThrows(InvalidFlightDataException.class, () -> WireBatches.read(Arrays.copyOf(whole, whole.length - 10))).getMessage();
        assertTrue(message.contains("data_body declares 24 bytes") && message.contains("truncated"), message);
    }

    @Test
    void aBodyLongerThanWhatArrivedIsRefusedBeforeAnythingIsAllocated() {
        byte[] prefix = FlightDataFields.prefix(null, header(HostileMessages.BUFFERS), null, 1L << 30);
        byte[] lying = Arrays.copyOf(prefix, prefix.length + 24);
        System.arraycopy(HostileMessages.body(), 0, lying, prefix.length, 24);
        class Known extends ByteArrayInputStream implements KnownLength {
            Known(byte[] bytes) {
                super(bytes);
            }
        }
        long before = cpu.memoryPool().stats().highWater();
        String message = assertThrows(InvalidFlightDataException.class,
                () -> FlightDataReader.read(new Known(lying), cpu, FlightDataMarshaller.DEFAULT_MAX_HEADER_BYTES)).getMessage();
        assertTrue(message.contains("field 1000 declares 1073741824 bytes but only"), message);
        assertTrue(cpu.memoryPool().stats().highWater() - before < 1 << 20, "no allocation of the declared size");
        byte[] huge = FlightDataFields.prefix(null, null, null, 1L << 40);
        String tooLarge = assertThrows(InvalidFlightDataException.class, () -> WireBatches.read(huge)).getMessage();
        assertTrue(tooLarge.contains("more than a gRPC message can hold"), tooLarge);
    }

    @Test
    void tooManyNodesAreRefusedWithoutReadingThem() {
        String more = refused(HostileMessages.header(2, new long[][] {{2, 0}, {2, 0}}, HostileMessages.BUFFERS), HostileMessages.body());
        assertTrue(more.contains("RecordBatch.nodes has 2 entries but the schema has 1 arrays"), more);
        byte[] lying = HostileMessages.withNodeCount(header(HostileMessages.BUFFERS), Integer.MAX_VALUE);
        String message = refused(lying, HostileMessages.body());
        assertTrue(message.contains("RecordBatch.nodes has " + Integer.MAX_VALUE + " entries"), message);
    }

    @Test
    void aHugeDeclaredLengthIsRefusedByTheSizesThatArrived() {
        String message = refused(HostileMessages.header(Long.MAX_VALUE, new long[][] {{Long.MAX_VALUE, 0}}, HostileMessages.BUFFERS), HostileMessages.body());
        assertTrue(message.contains("batch 0 refused"), message);
        String nulls = refused(HostileMessages.header(2, new long[][] {{2, 3}}, HostileMessages.BUFFERS), HostileMessages.body());
        assertTrue(nulls.contains("null count 3"), nulls);
    }

    @Test
    void offsetsPastTheDataAreRefusedByTheContentCheck() {
        byte[] body = HostileMessages.body();
        body[8] = 50;
        String message = refused(header(HostileMessages.BUFFERS), body);
        assertTrue(message.contains("batch 0 refused"), message);
    }

    @Test
    void aHeaderThatIsNoFlatbufferIsRefused() {
        byte[] garbage = new byte[64];
        Arrays.fill(garbage, (byte) 0x7F);
        String message = refused(garbage, HostileMessages.body());
        assertTrue(message.contains("data_header"), message);
    }

    @Test
    void aFieldNumberOutsideProtobufsRangeIsRefused() {
        String zero = assertThrows(InvalidFlightDataException.class, () -> WireBatches.read(new byte[] {0x02, 0x00})).getMessage();
        assertTrue(zero.contains("field number 0"), zero);
        byte[] allOnes = {-1, -1, -1, -1, -1, -1, -1, -1, -1, 0x01};
        String huge = assertThrows(InvalidFlightDataException.class, () -> WireBatches.read(allOnes)).getMessage();
        assertTrue(huge.contains("outside protobuf's 1.."), huge);
    }

    @Test
    void aBatchBeforeTheSchemaIsRefused() {
        try (FlightDataDecoder fresh = new FlightDataDecoder(cpu, "fresh stream")) {
            String message = assertThrows(InvalidFlightDataException.class, () -> fresh.accept(
                    WireBatches.read(HostileMessages.flightData(header(HostileMessages.BUFFERS), HostileMessages.body())))).getMessage();
            assertTrue(message.contains("came before the stream's Schema"), message);
        }
    }
}
