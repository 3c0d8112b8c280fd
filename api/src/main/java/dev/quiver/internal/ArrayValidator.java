package dev.quiver.internal;

import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Structural validation of an imported ArrowArray against its field: counts, lengths, offsets, buffer
 * presence and overflow. Reads only the structs, never buffer contents, so it is safe for any device.
 */
public final class ArrayValidator {
    private ArrayValidator() {}

    /**
     * @param array a live ArrowArray
     * @param field the field its schema describes
     * @throws InvalidArrowException naming the path of the first fault
     */
    public static void validate(MemorySegment array, Field field) {
        validate(array.reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), field, "", 0);
    }

    private static void validate(MemorySegment array, Field field, String path, int depth) {
        if (depth > SchemaReader.MAX_DEPTH) {
            throw new InvalidArrowException(path, "nesting deeper than " + SchemaReader.MAX_DEPTH + " levels");
        }
        if (array.get(ADDRESS, ArrowArrayLayout.RELEASE).equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(Paths.join(path, "release"), "is NULL: the array is released");
        }
        long length = array.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        long nullCount = array.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT);
        long offset = array.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        if (length < 0) {
            throw new InvalidArrowException(Paths.join(path, "length"), "is negative (" + length + ")");
        }
        if (offset < 0) {
            throw new InvalidArrowException(Paths.join(path, "offset"), "is negative (" + offset + ")");
        }
        if (offset > Long.MAX_VALUE / 64 - length) {
            throw new InvalidArrowException(Paths.join(path, "offset"), "offset + length overflows (" + offset + " + " + length + ")");
        }
        if (nullCount < -1 || nullCount > length) {
            throw new InvalidArrowException(Paths.join(path, "null_count"), "is " + nullCount + ", must be -1 or 0.." + length);
        }
        ArrowType type = field.type();
        BufferLayout layout = BufferLayout.of(type);
        if (type instanceof ArrowType.Null && nullCount != length && nullCount != -1) {
            throw new InvalidArrowException(Paths.join(path, "null_count"), "is " + nullCount + " but a null array of length " + length + " has every value null");
        }
        long nBuffers = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        if (nBuffers != layout.bufferCount()) {
            throw new InvalidArrowException(Paths.join(path, "n_buffers"),
                    "is " + nBuffers + " but format \"" + type.format() + "\" has " + layout.bufferCount() + " buffers");
        }
        MemorySegment buffers = array.get(ADDRESS, ArrowArrayLayout.BUFFERS);
        if (nBuffers > 0 && buffers.equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(Paths.join(path, "buffers"), "is NULL but n_buffers is " + nBuffers);
        }
        buffers = buffers.reinterpret(nBuffers * ADDRESS.byteSize());
        for (int i = 0; i < nBuffers; i++) {
            if (!buffers.getAtIndex(ADDRESS, i).equals(MemorySegment.NULL)) {
                continue;
            }
            boolean validity = i == 0 && layout.hasValidity();
            boolean valueBytes = layout.isVariableLength() && i == 2;
            boolean allowed = validity ? nullCount == 0 || length == 0 : length == 0 || valueBytes;
            if (!allowed) {
                throw new InvalidArrowException(Paths.index(path, "buffers", i), "the " + layout.bufferName(i)
                        + " buffer is NULL but " + (validity ? "null_count is " + nullCount : "length is " + length));
            }
        }
        long nChildren = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        if (nChildren != field.children().size()) {
            throw new InvalidArrowException(Paths.join(path, "n_children"),
                    "is " + nChildren + " but the schema has " + field.children().size() + " children");
        }
        MemorySegment children = array.get(ADDRESS, ArrowArrayLayout.CHILDREN);
        if (nChildren > 0 && children.equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(Paths.join(path, "children"), "is NULL but n_children is " + nChildren);
        }
        if (!array.get(ADDRESS, ArrowArrayLayout.DICTIONARY).equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(Paths.join(path, "dictionary"), "is set but the schema is not dictionary-encoded");
        }
        children = children.reinterpret(nChildren * ADDRESS.byteSize());
        for (int i = 0; i < nChildren; i++) {
            String childPath = Paths.index(path, "children", i);
            MemorySegment child = children.getAtIndex(ADDRESS, i);
            if (child.equals(MemorySegment.NULL)) {
                throw new InvalidArrowException(childPath, "is NULL");
            }
            MemorySegment childArray = child.reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
            validate(childArray, field.children().get(i), childPath, depth + 1);
            if (type instanceof ArrowType.Struct && childArray.get(JAVA_LONG, ArrowArrayLayout.LENGTH) < offset + length) {
                throw new InvalidArrowException(Paths.join(childPath, "length"), "is " + childArray.get(JAVA_LONG, ArrowArrayLayout.LENGTH)
                        + ", shorter than the parent struct's offset + length (" + (offset + length) + ")");
            }
        }
    }
}
