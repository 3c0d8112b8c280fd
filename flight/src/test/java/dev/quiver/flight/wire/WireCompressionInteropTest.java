package dev.quiver.flight.wire;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.DeviceCopy;
import dev.quiver.arrowjava.StreamExport;
import dev.quiver.arrowjava.StreamImport;
import dev.quiver.flight.FlightCompression;
import dev.quiver.host.HostVector;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Compressed bodies between the codec and plain Arrow Java (its {@code arrow-compression} codecs: LZ4 frames
 * through Commons Compress, ZSTD through zstd-jni), both ways, with each codec: the every-type batches of the
 * Flight tests (dictionaries included) and a batch whose buffers compress beside one that does not. The codec's
 * FlightData messages, put in an IPC stream, are read by Arrow Java's {@code ArrowStreamReader} into the same
 * values; the IPC messages Arrow Java's {@code ArrowStreamWriter} compresses, put in FlightData, are decoded by
 * the codec into the same values.
 */
class WireCompressionInteropTest {

    private static final List<HostVector> COMPRESSIBLE = List.of(CompressedBodies.batch());

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void arrowJavaReadsWhatTheCodecCompresses(FlightCompression compression) throws Exception {
        readByArrowJava(encode(WireBatches.ROWS.size(), WireBatches::batch, compression), WireBatches::assertCatalogue);
        readByArrowJava(encode(1, COMPRESSIBLE::get, compression), WireCompressionInteropTest::assertCompressible);
    }

    @ParameterizedTest
    @EnumSource(value = FlightCompression.class, names = {"LZ4_FRAME", "ZSTD"})
    void theCodecReadsWhatArrowJavaCompresses(FlightCompression compression) throws Exception {
        List<DeviceArray> decoded = decode(writtenByArrowJava(WireBatches.ROWS.size(), WireBatches::batch, compression), compression, false);
        try {
            WireBatches.assertCatalogue(decoded);
        } finally {
            decoded.forEach(DeviceArray::close);
        }
        List<DeviceArray> compressible = decode(writtenByArrowJava(1, COMPRESSIBLE::get, compression), compression, true);
        try {
            assertCompressible(compressible);
        } finally {
            compressible.forEach(DeviceArray::close);
        }
    }

    private static List<byte[]> encode(int batches, IntFunction<HostVector> batch, FlightCompression compression) throws Exception {
        List<byte[]> flightData = new ArrayList<>();
        flightData.add(WireBatches.bytes(FlightDataEncoder.schema(batch.apply(0).field(), null)));
        for (int b = 0; b < batches; b++) {
            try (DeviceArray array = batch.apply(b).toDeviceArray()) {
                for (OutgoingMessage message : FlightDataEncoder.batch(array, b == 0, null, compression)) {
                    flightData.add(WireBatches.bytes(message));
                }
            }
        }
        return flightData;
    }

    /** Reads the messages with Arrow Java's reader and checks the batches while its allocator is open. */
    private static void readByArrowJava(List<byte[]> flightData, Consumer<List<DeviceArray>> check) throws Exception {
        List<DeviceArray> read = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            try (DeviceArrayStream stream = StreamExport.toValidatedDeviceArrayStream(new ArrowStreamReader(
                    new ByteArrayInputStream(IpcStreamFrames.toIpcStream(flightData)), allocator, CommonsCompressionFactory.INSTANCE), allocator)) {
                while (stream.hasNext()) {
                    read.add(stream.next());
                }
                check.accept(read);
            } finally {
                read.forEach(DeviceArray::close);
            }
        }
    }

    private static byte[] writtenByArrowJava(int batches, IntFunction<HostVector> batch, FlightCompression compression) throws Exception {
        Field schema = batch.apply(0).field();
        CompressionUtil.CodecType codec = CompressionUtil.CodecType.valueOf(compression.name());
        ByteArrayOutputStream ipc = new ByteArrayOutputStream();
        try (BufferAllocator allocator = new RootAllocator();
             ArrowReader reader = StreamImport.toArrowReader(DeviceArrayStream.of(schema, DeviceType.CPU,
                     java.util.stream.IntStream.range(0, batches).mapToObj(b -> batch.apply(b).toDeviceArray())), allocator, DeviceCopy.COPY_TO_HOST);
             ArrowStreamWriter writer = new ArrowStreamWriter(reader.getVectorSchemaRoot(), reader, Channels.newChannel(ipc),
                     IpcOption.DEFAULT, CommonsCompressionFactory.INSTANCE, codec)) {
            writer.start();
            while (reader.loadNextBatch()) {
                writer.writeBatch();
            }
            writer.end();
        }
        return ipc.toByteArray();
    }

    /** Decodes Arrow Java's messages, checking their codec and, if asked, that some buffer of them was compressed. */
    private static List<DeviceArray> decode(byte[] ipc, FlightCompression compression, boolean someCompressed) throws Exception {
        byte codec = BufferCodec.of(compression).arrowType();
        List<DeviceArray> decoded = new ArrayList<>();
        boolean compressed = false;
        try (FlightDataDecoder decoder = new FlightDataDecoder(Devices.system().cpu(), "Arrow Java's compressed stream")) {
            for (byte[] message : IpcStreamFrames.toFlightData(new ByteArrayInputStream(ipc))) {
                if (decoder.schema() != null) {
                    CompressedBodies.Wire wire = CompressedBodies.wire(message);
                    assertEquals(codec, wire.codec(), "Arrow Java compressed the message with " + compression);
                    compressed |= wire.someCompressed();
                }
                DeviceArray batch = decoder.accept(WireBatches.read(message));
                if (batch != null) {
                    decoded.add(batch);
                }
            }
        } catch (RuntimeException | Error e) {
            decoded.forEach(DeviceArray::close);
            throw e;
        }
        if (someCompressed && !compressed) {
            decoded.forEach(DeviceArray::close);
            throw new AssertionError("Arrow Java sent no buffer compressed");
        }
        return decoded;
    }

    private static void assertCompressible(List<DeviceArray> batches) {
        assertEquals(1, batches.size(), "batches");
        DeviceArray batch = batches.getFirst();
        assertEquals(CompressedBodies.ROWS, batch.length());
        assertEquals(CompressedBodies.columns().size(), batch.childCount(), "columns");
        for (int c = 0; c < CompressedBodies.columns().size(); c++) {
            Field column = CompressedBodies.columns().get(c);
            try (DeviceArray values = batch.child(c)) {
                assertEquals(CompressedBodies.values(column), dev.quiver.host.ArrayReader.of(values).values(), column.name());
            }
        }
    }
}
