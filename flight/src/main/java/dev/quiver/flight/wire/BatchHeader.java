package dev.quiver.flight.wire;

import dev.quiver.flight.InvalidFlightDataException;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.RecordBatch;

import java.util.List;

/**
 * A {@code RecordBatch} header that was checked against the columns it must describe and the body that
 * actually arrived, copied out of the flatbuffer into plain arrays: after {@link #check} every count matches
 * the columns (one node per array in pre-order, the buffers each layout has, one variadic count per view
 * array), every length and null count is non-negative (a null count at most its length), and every buffer
 * lies inside the body at a multiple of 8, with no overflow. Nothing is allocated before the counts are
 * known to match, so a header that declares millions of nodes costs nothing. Of a compressed body, the
 * buffers checked are the compressed ones ({@link BodyDecompression} makes the uncompressed header). Immutable;
 * any thread.
 *
 * @param length         the batch's rows
 * @param nodeLengths    each node's length
 * @param nodeNulls      each node's null count
 * @param bufferOffsets  each buffer's offset in the body
 * @param bufferLengths  each buffer's length
 * @param variadicCounts each view array's variadic buffer count
 */
record BatchHeader(long length, long[] nodeLengths, long[] nodeNulls, long[] bufferOffsets, long[] bufferLengths, long[] variadicCounts) {

    /**
     * @param batch      the header as it arrived
     * @param columns    the fields the batch must hold (a record batch's columns, or a dictionary's values)
     * @param bodyLength the length of the body that arrived
     * @param what       names the message in errors
     * @return the checked header
     * @throws InvalidFlightDataException naming the message, the field and the rule broken
     */
    static BatchHeader check(RecordBatch batch, List<Field> columns, long bodyLength, String what) {
        long length = batch.length();
        if (length < 0) {
            throw new InvalidFlightDataException(what + ": RecordBatch.length is negative: " + length, null);
        }
        int[] shape = new int[3];
        for (Field column : columns) {
            count(column, shape);
        }
        int nodes = batch.nodesLength();
        if (nodes != shape[0]) {
            throw new InvalidFlightDataException(what + ": RecordBatch.nodes has " + nodes + " entries but the schema has " + shape[0] + " arrays", null);
        }
        int views = batch.variadicBufferCountsLength();
        if (views != shape[2]) {
            throw new InvalidFlightDataException(what + ": RecordBatch.variadicBufferCounts has " + views + " entries but the schema has "
                    + shape[2] + " view arrays", null);
        }
        long[] variadic = new long[views];
        long expectedBuffers = shape[1];
        for (int i = 0; i < views; i++) {
            variadic[i] = batch.variadicBufferCounts(i);
            if (variadic[i] < 0 || variadic[i] > batch.buffersLength()) {
                throw new InvalidFlightDataException(what + ": RecordBatch.variadicBufferCounts[" + i + "] is " + variadic[i]
                        + ", outside 0.." + batch.buffersLength(), null);
            }
            expectedBuffers += variadic[i];
        }
        int buffers = batch.buffersLength();
        if (buffers != expectedBuffers) {
            throw new InvalidFlightDataException(what + ": RecordBatch.buffers has " + buffers + " entries but the schema's arrays have "
                    + expectedBuffers, null);
        }
        long[] nodeLengths = new long[nodes];
        long[] nodeNulls = new long[nodes];
        FieldNode node = new FieldNode();
        for (int i = 0; i < nodes; i++) {
            batch.nodes(node, i);
            nodeLengths[i] = node.length();
            nodeNulls[i] = node.nullCount();
            if (nodeLengths[i] < 0 || nodeNulls[i] < 0 || nodeNulls[i] > nodeLengths[i]) {
                throw new InvalidFlightDataException(what + ": RecordBatch.nodes[" + i + "] has length " + nodeLengths[i] + " and null count "
                        + nodeNulls[i] + " (both must be non-negative, the null count at most the length)", null);
            }
        }
        long[] offsets = new long[buffers];
        long[] lengths = new long[buffers];
        Buffer buffer = new Buffer();
        for (int i = 0; i < buffers; i++) {
            batch.buffers(buffer, i);
            offsets[i] = buffer.offset();
            lengths[i] = buffer.length();
            if (offsets[i] < 0 || lengths[i] < 0 || offsets[i] > bodyLength || lengths[i] > bodyLength - offsets[i]) {
                throw new InvalidFlightDataException(what + ": RecordBatch.buffers[" + i + "] (offset " + offsets[i] + ", length " + lengths[i]
                        + ") is not inside the body of " + bodyLength + " bytes that arrived", null);
            }
            if ((offsets[i] & 7) != 0) {
                throw new InvalidFlightDataException(what + ": RecordBatch.buffers[" + i + "] starts at offset " + offsets[i]
                        + ", not a multiple of 8", null);
            }
        }
        return new BatchHeader(length, nodeLengths, nodeNulls, offsets, lengths, variadic);
    }

    /** Adds a field's arrays, fixed buffers and view arrays to {@code shape}. */
    private static void count(Field field, int[] shape) {
        BufferLayout layout = BufferLayout.of(field.type());
        shape[0]++;
        shape[1] += layout.bufferCount();
        if (layout.variadic()) {
            shape[2]++;
        }
        if (field.dictionary() == null) {
            for (Field child : field.children()) {
                count(child, shape);
            }
        }
    }
}
