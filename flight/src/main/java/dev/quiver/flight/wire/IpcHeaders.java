package dev.quiver.flight.wire;

import com.google.flatbuffers.FlatBufferBuilder;
import org.apache.arrow.flatbuf.BodyCompression;
import org.apache.arrow.flatbuf.BodyCompressionMethod;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.DictionaryBatch;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

/**
 * The Arrow IPC {@code Message} flatbuffers a stream sends as {@code data_header}: a {@code Schema}, and a
 * {@code RecordBatch} or {@code DictionaryBatch} built from a {@link BodyLayout} with the arrow-format
 * classes (no vectors), with a {@code BodyCompression} where the layout's buffers are compressed. Metadata
 * version V5. The arrays returned are small (a few dozen bytes per column), never the size of a body.
 * Stateless; any thread.
 */
final class IpcHeaders {
    private IpcHeaders() {}

    /**
     * @param schema the stream's schema
     * @return the {@code Message} bytes of the schema
     */
    static byte[] schema(Schema schema) {
        FlatBufferBuilder builder = new FlatBufferBuilder(256);
        int header = schema.getSchema(builder);
        return message(builder, MessageHeader.Schema, header, 0);
    }

    /**
     * @param layout the batch's layout
     * @return the {@code Message} bytes of its record batch
     */
    static byte[] recordBatch(BodyLayout layout) {
        FlatBufferBuilder builder = new FlatBufferBuilder(estimate(layout));
        int batch = recordBatch(builder, layout);
        return message(builder, MessageHeader.RecordBatch, batch, layout.bodyLength());
    }

    /**
     * @param id      the dictionary's id, as the schema gives it
     * @param layout  the layout of the dictionary's values
     * @param isDelta whether the values add to the dictionary sent before rather than replace it
     * @return the {@code Message} bytes of the dictionary batch
     */
    static byte[] dictionaryBatch(long id, BodyLayout layout, boolean isDelta) {
        FlatBufferBuilder builder = new FlatBufferBuilder(estimate(layout));
        int batch = recordBatch(builder, layout);
        int dictionary = DictionaryBatch.createDictionaryBatch(builder, id, batch, isDelta);
        return message(builder, MessageHeader.DictionaryBatch, dictionary, layout.bodyLength());
    }

    private static int estimate(BodyLayout layout) {
        return 128 + 16 * layout.nodes().size() + 16 * layout.buffers().size() + 8 * layout.variadicCounts().size();
    }

    private static int recordBatch(FlatBufferBuilder builder, BodyLayout layout) {
        List<Long> counts = layout.variadicCounts();
        int variadic = 0;
        if (!counts.isEmpty()) {
            variadic = RecordBatch.createVariadicBufferCountsVector(builder, counts.stream().mapToLong(Long::longValue).toArray());
        }
        List<java.lang.foreign.MemorySegment> buffers = layout.buffers();
        RecordBatch.startBuffersVector(builder, buffers.size());
        for (int i = buffers.size() - 1; i >= 0; i--) {
            Buffer.createBuffer(builder, layout.offsets().get(i), buffers.get(i).byteSize());
        }
        int bufferVector = builder.endVector();
        List<long[]> nodes = layout.nodes();
        RecordBatch.startNodesVector(builder, nodes.size());
        for (int i = nodes.size() - 1; i >= 0; i--) {
            FieldNode.createFieldNode(builder, nodes.get(i)[0], nodes.get(i)[1]);
        }
        int nodeVector = builder.endVector();
        int compression = layout.codec() < 0 ? 0
                : BodyCompression.createBodyCompression(builder, layout.codec(), BodyCompressionMethod.BUFFER);
        RecordBatch.startRecordBatch(builder);
        RecordBatch.addLength(builder, layout.length());
        RecordBatch.addNodes(builder, nodeVector);
        RecordBatch.addBuffers(builder, bufferVector);
        if (!counts.isEmpty()) {
            RecordBatch.addVariadicBufferCounts(builder, variadic);
        }
        if (layout.codec() >= 0) {
            RecordBatch.addCompression(builder, compression);
        }
        return RecordBatch.endRecordBatch(builder);
    }

    private static byte[] message(FlatBufferBuilder builder, byte type, int header, long bodyLength) {
        Message.startMessage(builder);
        Message.addVersion(builder, MetadataVersion.V5);
        Message.addHeaderType(builder, type);
        Message.addHeader(builder, header);
        Message.addBodyLength(builder, bodyLength);
        builder.finish(Message.endMessage(builder));
        return builder.sizedByteArray();
    }
}
