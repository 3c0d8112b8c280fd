package dev.quiver.flight.wire;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.RecordBatch;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Hand-made FlightData messages of a stream with one utf8 column {@code s}: the valid batch {@code ["a", "b"]}
 * (offsets 0, 1, 2 at body offset 0, the two bytes at 16; a body of 24 bytes) and whatever a hostile peer
 * makes of its header and body.
 */
final class HostileMessages {
    static final Field SCHEMA = Field.struct("", false, List.of(Field.of("s", new ArrowType.Utf8(), true)));
    static final long[][] NODES = {{2, 0}};
    static final long[][] BUFFERS = {{0, 0}, {0, 12}, {16, 2}};

    private HostileMessages() {}

    /** {@return the valid body: offsets 0, 1, 2, padding, "ab", padding} */
    static byte[] body() {
        ByteBuffer body = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        body.putInt(0, 0).putInt(4, 1).putInt(8, 2).put(16, (byte) 'a').put(17, (byte) 'b');
        return body.array();
    }

    /** {@return an IPC Message with a RecordBatch of those rows, nodes (length, null count) and buffers (offset, length)} */
    static byte[] header(long length, long[][] nodes, long[][] buffers) {
        FlatBufferBuilder builder = new FlatBufferBuilder(256);
        RecordBatch.startBuffersVector(builder, buffers.length);
        for (int i = buffers.length - 1; i >= 0; i--) {
            Buffer.createBuffer(builder, buffers[i][0], buffers[i][1]);
        }
        int bufferVector = builder.endVector();
        RecordBatch.startNodesVector(builder, nodes.length);
        for (int i = nodes.length - 1; i >= 0; i--) {
            FieldNode.createFieldNode(builder, nodes[i][0], nodes[i][1]);
        }
        int nodeVector = builder.endVector();
        int batch = RecordBatch.createRecordBatch(builder, length, nodeVector, bufferVector, 0, 0);
        builder.finish(Message.createMessage(builder, MetadataVersion.V5, MessageHeader.RecordBatch, batch, 24, 0));
        return builder.sizedByteArray();
    }

    /** {@return the FlightData bytes of that header and body} */
    static byte[] flightData(byte[] header, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(FlightDataFields.prefix(null, header, null, body.length));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** {@return the header with the count of its nodes vector (one node of length 2) replaced by {@code count}} */
    static byte[] withNodeCount(byte[] header, int count) {
        ByteBuffer bytes = ByteBuffer.wrap(header.clone()).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 0; at + 20 <= header.length; at += 4) {
            if (bytes.getInt(at) == 1 && bytes.getLong(at + 4) == 2 && bytes.getLong(at + 12) == 0) {
                bytes.putInt(at, count);
                return bytes.array();
            }
        }
        throw new IllegalStateException("the nodes vector was not found");
    }
}
