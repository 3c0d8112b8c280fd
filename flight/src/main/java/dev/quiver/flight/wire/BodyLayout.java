package dev.quiver.flight.wire;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceType;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * What the IPC {@code RecordBatch} header of a host batch says, read straight from the batch's structs: one
 * field node per array in pre-order (length, null count), the batch's own buffers in the IPC order with
 * their body offsets (each at a multiple of 8, zero padding between), and the variadic buffer count of each
 * view array. The buffers are the batch's memory, not copies; nothing is read but validity bitmaps (for null
 * counts the batch does not carry) and the structs.
 *
 * <p>The IPC buffers are the C Data Interface buffers in the same order, less the variadic sizes buffer of
 * view arrays (the header carries those sizes). A dictionary-encoded array contributes its indexes; its
 * dictionary is collected for a {@code DictionaryBatch} of its own.
 *
 * <p><b>Ownership.</b> The layout holds no reference: the segments are valid while the batch is open, which
 * the caller guarantees ({@link OutgoingMessage} retains the batch). The dictionaries collected are views the
 * caller closes. <b>Threading.</b> Built and read by one thread at a time; immutable once built.
 */
final class BodyLayout {
    /** Field nodes, as (length, null count) pairs. */
    private final List<long[]> nodes = new ArrayList<>();
    private final List<MemorySegment> buffers = new ArrayList<>();
    private final List<Long> offsets = new ArrayList<>();
    private final List<Long> variadicCounts = new ArrayList<>();
    private final long length;
    private long bodyLength;
    /** The {@code CompressionType} of the buffers, or -1 for buffers as they lie in memory. */
    private byte codec = -1;

    private BodyLayout(long length) {
        this.length = length;
    }

    /**
     * @param batch        an open CPU struct array with offset 0 at every level; read, not consumed
     * @param dictionaries receives a view of the dictionary of each encoded column, in dictionary id order
     *                     (see {@link SchemaMapping}); the caller closes them
     * @return the layout of a record batch of the struct's children
     * @throws IllegalArgumentException if the batch is not such an array
     */
    static BodyLayout ofBatch(DeviceArray batch, List<DeviceArray> dictionaries) {
        if (!(batch.field().type() instanceof ArrowType.Struct)) {
            throw new IllegalArgumentException("a batch is a struct array, not " + batch.field().type().format());
        }
        checkWritable(batch, "the batch");
        BodyLayout layout = new BodyLayout(batch.length());
        for (int i = 0; i < batch.childCount(); i++) {
            try (DeviceArray column = batch.child(i)) {
                layout.add(column, dictionaries, batch.field().children().get(i).name());
            }
        }
        return layout;
    }

    /**
     * @param dictionary an open CPU array of a dictionary's values, offset 0 at every level; read, not consumed
     * @return the layout of the record batch of a {@code DictionaryBatch}: one column, the values
     * @throws IllegalArgumentException if the array is not such an array, or its values are encoded again
     */
    static BodyLayout ofDictionary(DeviceArray dictionary) {
        BodyLayout layout = new BodyLayout(dictionary.length());
        List<DeviceArray> nested = new ArrayList<>();
        layout.add(dictionary, nested, "dictionary values");
        if (!nested.isEmpty()) {
            nested.forEach(DeviceArray::close);
            throw new IllegalArgumentException("a dictionary's values are dictionary-encoded again, which this codec does not write");
        }
        return layout;
    }

    /**
     * @param buffers each buffer of this layout compressed in the IPC format (length prefix, frame), in order
     * @param codec   the {@code CompressionType} of the frames
     * @return a layout with this one's nodes and variadic counts and those buffers, packed at multiples of 8
     */
    BodyLayout compressed(List<MemorySegment> buffers, byte codec) {
        BodyLayout layout = new BodyLayout(length);
        layout.nodes.addAll(nodes);
        layout.variadicCounts.addAll(variadicCounts);
        layout.codec = codec;
        for (MemorySegment buffer : buffers) {
            layout.buffers.add(buffer);
            layout.offsets.add(layout.bodyLength);
            layout.bodyLength = Math.addExact(layout.bodyLength, padded(buffer.byteSize()));
        }
        return layout;
    }

    private void add(DeviceArray array, List<DeviceArray> dictionaries, String path) {
        checkWritable(array, path);
        Field field = array.field();
        BufferLayout layout = BufferLayout.of(field.type());
        nodes.add(new long[] {array.length(), nullCount(array, layout)});
        int count = layout.variadic() ? array.bufferCount() - 1 : array.bufferCount();
        for (int i = 0; i < count; i++) {
            addBuffer(array.buffer(i), path, i);
        }
        if (layout.variadic()) {
            variadicCounts.add((long) (count - layout.bufferCount()));
        }
        if (field.dictionary() != null) {
            dictionaries.add(array.dictionary().orElseThrow());
            return;
        }
        for (int i = 0; i < array.childCount(); i++) {
            try (DeviceArray child = array.child(i)) {
                add(child, dictionaries, path + "." + field.children().get(i).name());
            }
        }
    }

    private void addBuffer(DeviceBuffer view, String path, int index) {
        MemorySegment bytes = view.pointer().equals(MemorySegment.NULL) ? MemorySegment.NULL : view.asSegment();
        long start = bodyLength;
        buffers.add(bytes);
        offsets.add(start);
        bodyLength = Math.addExact(start, padded(bytes.byteSize()));
    }

    private static void checkWritable(DeviceArray array, String path) {
        if (!array.deviceType().equals(DeviceType.CPU)) {
            throw new IllegalArgumentException(path + " is in " + array.deviceType() + " memory: copy it to the host first");
        }
        if (array.offset() != 0) {
            throw new IllegalArgumentException(path + " has offset " + array.offset() + ": the IPC format has none, so a sliced"
                    + " batch must be copied (copyToHost) before it is written");
        }
    }

    /** The null count the array carries, or counted from its validity bitmap when it carries none (-1). */
    private static long nullCount(DeviceArray array, BufferLayout layout) {
        if (array.field().type() instanceof ArrowType.Null) {
            return array.length();
        }
        if (!layout.hasValidity()) {
            return 0;
        }
        long known = array.nullCount();
        if (known >= 0) {
            return known;
        }
        DeviceBuffer validity = array.buffer(0);
        if (validity.pointer().equals(MemorySegment.NULL)) {
            return 0;
        }
        return array.length() - setBits(validity.asSegment(), array.length());
    }

    private static long setBits(MemorySegment bitmap, long bits) {
        long set = 0;
        long whole = bits / 64;
        for (long i = 0; i < whole; i++) {
            set += Long.bitCount(bitmap.get(JAVA_LONG_UNALIGNED, i * 8));
        }
        for (long bit = whole * 64; bit < bits; bit++) {
            set += (bitmap.get(JAVA_BYTE, bit >>> 3) >>> (bit & 7)) & 1;
        }
        return set;
    }

    /** {@return {@code bytes} rounded up to a multiple of 8} @param bytes a size */
    static long padded(long bytes) {
        return (bytes + 7) & ~7L;
    }

    /** {@return the batch's rows} */
    long length() {
        return length;
    }

    /** {@return the field nodes, as (length, null count) pairs in pre-order} */
    List<long[]> nodes() {
        return nodes;
    }

    /** {@return the buffers' bytes in IPC order; {@code MemorySegment.NULL} for an absent buffer} */
    List<MemorySegment> buffers() {
        return buffers;
    }

    /** {@return the buffers' offsets in the body, multiples of 8} */
    List<Long> offsets() {
        return offsets;
    }

    /** {@return the variadic buffer count of each view array, in pre-order} */
    List<Long> variadicCounts() {
        return variadicCounts;
    }

    /** {@return the {@code CompressionType} of the buffers, or -1 if they are not compressed} */
    byte codec() {
        return codec;
    }

    /** {@return the body's length: every buffer, each padded to a multiple of 8} */
    long bodyLength() {
        return bodyLength;
    }
}
