package dev.quiver.flight.wire;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.flight.FlightCompression;
import dev.quiver.flight.InvalidFlightDataException;
import dev.quiver.host.ArrayReader;
import org.apache.arrow.flatbuf.BodyCompression;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile compressed bodies are refused, naming the message, the buffer and the codec, before anything is built
 * over them, and nothing leaks (the CPU memory in use is the same after each refusal). The stream is
 * {@link HostileMessages}' (one utf8 column, the batch {@code ["a", "b"]}); its compressed form carries the
 * validity buffer as no bytes at all (as Arrow C++ may), the offsets as they are (length -1) and the two bytes
 * compressed, and decodes (so do LZ4 frames with linked blocks and checksums, as Arrow C++ writes them); each
 * case changes what it names.
 */
class WireCompressionHostileTest {
    private static final byte[] OFFSETS = Arrays.copyOf(HostileMessages.body(), 12);
    private static final byte[] DATA = {'a', 'b'};

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

    /** {@return one compressed buffer as the body carries it: the prefix, then the bytes} */
    private static byte[] buffer(long prefix, byte[] bytes) {
        return ByteBuffer.allocate(8 + bytes.length).order(ByteOrder.LITTLE_ENDIAN).putLong(prefix).put(bytes).array();
    }

    /** {@return the codec's frame of those bytes} */
    private static byte[] frame(FlightCompression compression, byte[] bytes) {
        BufferCodec codec = BufferCodec.of(compression);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(bytes.length);
            MemorySegment.copy(bytes, 0, source, JAVA_BYTE, 0, bytes.length);
            MemorySegment target = arena.allocate(codec.capacity(bytes.length) + 64);
            long written = codec.compress(source, target);
            return target.asSlice(0, written).toArray(JAVA_BYTE);
        }
    }

    /** {@return a FlightData message of the batch ["a", "b"] with those buffers, BodyCompression (codec, method)} */
    static byte[] message(byte codec, byte method, byte[]... buffers) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        long[][] layout = new long[buffers.length][];
        for (int i = 0; i < buffers.length; i++) {
            layout[i] = new long[] {body.size(), buffers[i].length};
            body.writeBytes(buffers[i]);
            body.writeBytes(new byte[(int) BodyLayout.padded(buffers[i].length) - buffers[i].length]);
        }
        FlatBufferBuilder builder = new FlatBufferBuilder(256);
        RecordBatch.startBuffersVector(builder, layout.length);
        for (int i = layout.length - 1; i >= 0; i--) {
            Buffer.createBuffer(builder, layout[i][0], layout[i][1]);
        }
        int bufferVector = builder.endVector();
        RecordBatch.startNodesVector(builder, 1);
        FieldNode.createFieldNode(builder, 2, 0);
        int nodeVector = builder.endVector();
        int compression = BodyCompression.createBodyCompression(builder, codec, method);
        int batch = RecordBatch.createRecordBatch(builder, 2, nodeVector, bufferVector, compression, 0);
        builder.finish(Message.createMessage(builder, MetadataVersion.V5, MessageHeader.RecordBatch, batch, body.size(), 0));
        return HostileMessages.flightData(builder.sizedByteArray(), body.toByteArray());
    }

    private static byte[] message(FlightCompression compression, byte[] data) {
        return message(BufferCodec.of(compression).arrowType(), (byte) 0, new byte[0], buffer(-1, OFFSETS), data);
    }

    private String refused(byte[] flightData) {
        return assertThrows(InvalidFlightDataException.class, () -> decoder.accept(WireBatches.read(flightData))).getMessage();
    }

    private static void assertNames(String message, FlightCompression compression, String... parts) {
        assertTrue(message.contains("hostile stream: batch 0") && message.contains("buffers[2]") && message.contains(compression.name()), message);
        for (String part : parts) {
            assertTrue(message.contains(part), message);
        }
    }

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void theValidMessageDecodesWithEmptyRawAndCompressedBuffers(FlightCompression compression) {
        byte[] data = buffer(2, frame(compression, DATA));
        try (DeviceArray batch = decoder.accept(WireBatches.read(message(compression, data))); DeviceArray column = batch.child(0)) {
            assertEquals(List.of("a", "b"), ArrayReader.of(column).values());
        }
        byte codec = BufferCodec.of(compression).arrowType();
        byte[] javaStyle = message(codec, (byte) 0, buffer(0, new byte[0]), buffer(-1, OFFSETS), buffer(-1, DATA));
        try (DeviceArray batch = decoder.accept(WireBatches.read(javaStyle)); DeviceArray column = batch.child(0)) {
            assertEquals(List.of("a", "b"), ArrayReader.of(column).values(), "the prefix 0 and raw buffers");
        }
    }

    @Test
    void lz4FramesWithLinkedBlocksAsArrowCppWritesThemAreRead() throws IOException {
        byte[] text = new byte[200_000];
        for (int i = 0; i < text.length; i++) {
            text[i] = (byte) ('a' + (i * 7 + i / 1000) % 26);
        }
        ByteArrayOutputStream linked = new ByteArrayOutputStream();
        FramedLZ4CompressorOutputStream.Parameters parameters =
                new FramedLZ4CompressorOutputStream.Parameters(FramedLZ4CompressorOutputStream.BlockSize.K64, true, true, true);
        try (FramedLZ4CompressorOutputStream out = new FramedLZ4CompressorOutputStream(linked, parameters)) {
            out.write(text);
        }
        byte[] offsets = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putInt(0).putInt(1).putInt(text.length).array();
        byte[] message = message(BufferCodec.of(FlightCompression.LZ4_FRAME).arrowType(), (byte) 0, new byte[0], buffer(-1, offsets),
                buffer(text.length, linked.toByteArray()));
        try (DeviceArray batch = decoder.accept(WireBatches.read(message)); DeviceArray column = batch.child(0)) {
            String all = new String(text, java.nio.charset.StandardCharsets.US_ASCII);
            assertEquals(List.of(all.substring(0, 1), all.substring(1)), ArrayReader.of(column).values());
        }
    }

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void aNegativeLengthOtherThanMinusOneIsRefused(FlightCompression compression) {
        assertNames(refused(message(compression, buffer(-2, frame(compression, DATA)))), compression, "uncompressed length of -2");
    }

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void aBufferShorterThanItsPrefixIsRefused(FlightCompression compression) {
        assertNames(refused(message(compression, new byte[] {2, 0, 0, 0})), compression, "is 4 bytes, shorter than the 8-byte");
    }

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void aFrameOfAnotherLengthThanItsPrefixIsRefused(FlightCompression compression) {
        assertNames(refused(message(compression, buffer(3, frame(compression, DATA)))), compression, "decompresses to 2 bytes, not the 3");
        assertNames(refused(message(compression, buffer(1, frame(compression, DATA)))), compression, "not valid");
    }

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void malformedDataIsRefused(FlightCompression compression) {
        byte[] garbage = new byte[24];
        Arrays.fill(garbage, (byte) 0x55);
        assertNames(refused(message(compression, buffer(2, garbage))), compression, "is not valid " + compression.name() + " data");
        byte[] cut = frame(compression, DATA);
        assertNames(refused(message(compression, buffer(2, Arrays.copyOf(cut, cut.length - 3)))), compression, "not valid");
    }

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void aBombIsRefusedBeforeAnythingIsAllocated(FlightCompression compression) throws IOException {
        long before = cpu.memoryPool().stats().highWater();
        String bomb = refused(message(compression, buffer(1L << 40, frame(compression, DATA))));
        assertNames(bomb, compression, "declares 1099511627776 uncompressed bytes", "decompression bomb");
        assertTrue(cpu.memoryPool().stats().highWater() - before < 1 << 20, "no allocation of the declared size");
        byte[] many = new byte[1 << 16];
        Arrays.fill(many, (byte) 'a');
        try (FlightDataDecoder bounded = new FlightDataDecoder(cpu, "hostile stream", 4096)) {
            bounded.accept(WireBatches.read(WireBatches.bytes(FlightDataEncoder.schema(HostileMessages.SCHEMA, null))));
            String limit = assertThrows(InvalidFlightDataException.class,
                    () -> bounded.accept(WireBatches.read(message(compression, buffer(many.length, frame(compression, many)))))).getMessage();
            assertNames(limit, compression, "more than the 4096 a message may decompress to");
        }
        assertTrue(cpu.memoryPool().stats().highWater() - before < 1 << 20, "no allocation of the declared size");
    }

    @Test
    void anUnknownCodecOrMethodIsRefusedNamingIt() {
        byte[] data = buffer(-1, DATA);
        String codec = refused(message((byte) 7, (byte) 0, new byte[0], buffer(-1, OFFSETS), data));
        assertTrue(codec.contains("batch 0") && codec.contains("BodyCompression.codec 7 is neither LZ4_FRAME (0) nor ZSTD (1)"), codec);
        String method = refused(message((byte) 0, (byte) 1, new byte[0], buffer(-1, OFFSETS), data));
        assertTrue(method.contains("batch 0") && method.contains("BodyCompression.method 1 is not BUFFER (0)"), method);
    }
}
