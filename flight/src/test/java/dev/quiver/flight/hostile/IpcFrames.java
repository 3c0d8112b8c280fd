package dev.quiver.flight.hostile;

import com.google.flatbuffers.FlatBufferBuilder;
import com.google.protobuf.ByteString;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.DictionaryBatch;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Arrow IPC messages as Flight carries them ({@code FlightData}: a flatbuffer {@code Message} header and a
 * body), written field by field so that a test can make them say anything: lengths, null counts and buffer
 * regions that disagree with the body, buffers missing, batches before the schema. Test code only; a
 * builder is used by one thread.
 */
public final class IpcFrames {
    private IpcFrames() {}

    /**
     * @param schema the schema, as Arrow Java would announce it
     * @return the schema message, without a descriptor
     */
    public static Flight.FlightData schema(Schema schema) {
        ByteBuffer header = MessageSerializer.serializeMetadata(schema, IpcOption.DEFAULT);
        return Flight.FlightData.newBuilder().setDataHeader(ByteString.copyFrom(header)).build();
    }

    /**
     * @param message a message
     * @param name    the stream name a put is sent under
     * @return the message with the put's descriptor, as the first message of a put carries it
     */
    public static Flight.FlightData withPath(Flight.FlightData message, String name) {
        return message.toBuilder().setFlightDescriptor(Flight.FlightDescriptor.newBuilder()
                .setType(Flight.FlightDescriptor.DescriptorType.PATH).addPath(name)).build();
    }

    /**
     * @param messages Flight messages
     * @return the same messages in the Arrow IPC streaming format: each framed by the continuation marker and
     *         its padded metadata length, then the end-of-stream marker
     */
    public static byte[] ipcStream(List<Flight.FlightData> messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Flight.FlightData message : messages) {
            byte[] header = message.getDataHeader().toByteArray();
            int padded = (header.length + 7) / 8 * 8;
            out.writeBytes(ints(-1, padded));
            out.writeBytes(header);
            out.writeBytes(new byte[padded - header.length]);
            out.writeBytes(message.getDataBody().toByteArray());
        }
        out.writeBytes(ints(-1, 0));
        return out.toByteArray();
    }

    /** @return a new record batch message saying it has {@code rows} rows */
    public static Batch batch(long rows) {
        return new Batch(rows);
    }

    /** @return little-endian int32 values */
    public static byte[] ints(int... values) {
        ByteBuffer out = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            out.putInt(v);
        }
        return out.array();
    }

    /** @return little-endian int64 values */
    public static byte[] longs(long... values) {
        ByteBuffer out = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            out.putLong(v);
        }
        return out.array();
    }

    /** @return the UTF-8 bytes of a string */
    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** @return a validity bitmap with the first {@code valid} of {@code rows} bits set */
    public static byte[] validity(int rows, int valid) {
        byte[] bits = new byte[(rows + 7) / 8];
        for (int i = 0; i < valid; i++) {
            bits[i >>> 3] |= (byte) (1 << (i & 7));
        }
        return bits;
    }

    /** A record batch (or dictionary batch) message, field by field. */
    public static final class Batch {
        private final long rows;
        private final List<long[]> nodes = new ArrayList<>();
        private final List<long[]> regions = new ArrayList<>();
        private final List<Long> variadicCounts = new ArrayList<>();
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        private Batch(long rows) {
            this.rows = rows;
        }

        /** Adds a field node. @return this */
        public Batch node(long length, long nullCount) {
            nodes.add(new long[] {length, nullCount});
            return this;
        }

        /** Appends a buffer to the body (padded to 8 bytes) and its region to the header. @return this */
        public Batch buffer(byte[] bytes) {
            long offset = body.size();
            body.writeBytes(bytes);
            body.writeBytes(new byte[(8 - bytes.length % 8) % 8]);
            regions.add(new long[] {offset, bytes.length});
            return this;
        }

        /** Adds a buffer region to the header with no bytes behind it: it may point anywhere. @return this */
        public Batch region(long offset, long length) {
            regions.add(new long[] {offset, length});
            return this;
        }

        /** Adds a variadic buffer count (views). @return this */
        public Batch variadic(long count) {
            variadicCounts.add(count);
            return this;
        }

        /** @return the record batch message */
        public Flight.FlightData message() {
            FlatBufferBuilder builder = new FlatBufferBuilder();
            int header = recordBatch(builder);
            return frame(builder, MessageHeader.RecordBatch, header);
        }

        /**
         * @param id the dictionary id
         * @return this batch as the dictionary batch of {@code id}
         */
        public Flight.FlightData dictionary(long id) {
            FlatBufferBuilder builder = new FlatBufferBuilder();
            int data = recordBatch(builder);
            int header = DictionaryBatch.createDictionaryBatch(builder, id, data, false);
            return frame(builder, MessageHeader.DictionaryBatch, header);
        }

        private int recordBatch(FlatBufferBuilder builder) {
            int counts = variadicCounts.isEmpty() ? 0
                    : RecordBatch.createVariadicBufferCountsVector(builder, variadicCounts.stream().mapToLong(Long::longValue).toArray());
            RecordBatch.startBuffersVector(builder, regions.size());
            for (int i = regions.size() - 1; i >= 0; i--) {
                Buffer.createBuffer(builder, regions.get(i)[0], regions.get(i)[1]);
            }
            int buffers = builder.endVector();
            RecordBatch.startNodesVector(builder, nodes.size());
            for (int i = nodes.size() - 1; i >= 0; i--) {
                FieldNode.createFieldNode(builder, nodes.get(i)[0], nodes.get(i)[1]);
            }
            int fieldNodes = builder.endVector();
            RecordBatch.startRecordBatch(builder);
            RecordBatch.addLength(builder, rows);
            RecordBatch.addNodes(builder, fieldNodes);
            RecordBatch.addBuffers(builder, buffers);
            if (counts != 0) {
                RecordBatch.addVariadicBufferCounts(builder, counts);
            }
            return RecordBatch.endRecordBatch(builder);
        }

        private Flight.FlightData frame(FlatBufferBuilder builder, byte type, int header) {
            int message = Message.createMessage(builder, MetadataVersion.V5, type, header, body.size(), 0);
            builder.finish(message);
            return Flight.FlightData.newBuilder()
                    .setDataHeader(ByteString.copyFrom(builder.sizedByteArray()))
                    .setDataBody(ByteString.copyFrom(body.toByteArray()))
                    .build();
        }
    }
}
