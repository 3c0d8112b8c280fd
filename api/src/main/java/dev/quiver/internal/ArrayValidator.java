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
 * presence, child lengths and overflow of offset + length. Reads only the structs, never buffer contents,
 * so it is safe for any device and runs on every import.
 */
public final class ArrayValidator {
    /** Largest offset + length accepted: keeps every derived byte size (x 16 for views) within a long. */
    static final long MAX_SLOTS = Long.MAX_VALUE / 256;

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
        if (length > MAX_SLOTS || offset > MAX_SLOTS - length) {
            throw new InvalidArrowException(Paths.join(path, "offset"), "offset + length overflows the addressable range (" + offset + " + " + length + ")");
        }
        if (nullCount < -1 || nullCount > length) {
            throw new InvalidArrowException(Paths.join(path, "null_count"), "is " + nullCount + ", must be -1 or 0.." + length);
        }
        ArrowType type = field.type();
        BufferLayout layout = BufferLayout.of(type);
        if (type instanceof ArrowType.Null && nullCount != length && nullCount != -1) {
            throw new InvalidArrowException(Paths.join(path, "null_count"), "is " + nullCount + " but a null array of length " + length + " has every value null");
        }
        if ((type instanceof ArrowType.Union || type instanceof ArrowType.RunEndEncoded) && nullCount != 0) {
            throw new InvalidArrowException(Paths.join(path, "null_count"), "is " + nullCount + " but " + type.format()
                    + " arrays have no validity bitmap (must be 0)");
        }
        checkBuffers(array, layout, length, offset, nullCount, type, path);
        checkChildren(array, field, length, offset, path, depth);
        MemorySegment dictionary = array.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        if (field.dictionary() == null && !dictionary.equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(Paths.join(path, "dictionary"), "is set but the schema is not dictionary-encoded");
        }
        if (field.dictionary() != null) {
            if (dictionary.equals(MemorySegment.NULL)) {
                throw new InvalidArrowException(Paths.join(path, "dictionary"), "is NULL but the schema is dictionary-encoded");
            }
            validate(dictionary.reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), field.dictionary().values(),
                    Paths.join(path, "dictionary"), depth + 1);
        }
    }

    private static void checkBuffers(MemorySegment array, BufferLayout layout, long length, long offset, long nullCount,
                                     ArrowType type, String path) {
        long nBuffers = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        if (!layout.acceptsBufferCount(nBuffers)) {
            throw new InvalidArrowException(Paths.join(path, "n_buffers"), "is " + nBuffers + " but format \"" + type.format()
                    + "\" has " + (layout.variadic() ? "at least " + (layout.bufferCount() + 1) : layout.bufferCount()) + " buffers");
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
            boolean allowed;
            String because;
            if (i >= layout.bufferCount()) {
                boolean sizes = i == nBuffers - 1;
                allowed = !sizes || nBuffers == layout.bufferCount() + 1;
                because = "there are " + (nBuffers - layout.bufferCount() - 1) + " variadic buffers";
            } else {
                BufferLayout.Buffer buffer = layout.buffers().get(i);
                switch (buffer.kind()) {
                    case VALIDITY -> {
                        allowed = nullCount == 0 || length == 0;
                        because = "null_count is " + nullCount;
                    }
                    case DATA -> {
                        allowed = true;
                        because = "";
                    }
                    default -> {
                        allowed = length == 0;
                        because = "length is " + length;
                    }
                }
            }
            if (!allowed) {
                throw new InvalidArrowException(Paths.index(path, "buffers", i), "the " + layout.bufferName(i, nBuffers)
                        + " buffer is NULL but " + because);
            }
        }
    }

    private static void checkChildren(MemorySegment array, Field field, long length, long offset, String path, int depth) {
        long nChildren = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        if (nChildren != field.children().size()) {
            throw new InvalidArrowException(Paths.join(path, "n_children"),
                    "is " + nChildren + " but the schema has " + field.children().size() + " children");
        }
        MemorySegment children = array.get(ADDRESS, ArrowArrayLayout.CHILDREN);
        if (nChildren > 0 && children.equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(Paths.join(path, "children"), "is NULL but n_children is " + nChildren);
        }
        children = children.reinterpret(nChildren * ADDRESS.byteSize());
        long[] childLengths = new long[(int) nChildren];
        ArrowType type = field.type();
        for (int i = 0; i < nChildren; i++) {
            String childPath = Paths.index(path, "children", i);
            MemorySegment child = children.getAtIndex(ADDRESS, i);
            if (child.equals(MemorySegment.NULL)) {
                throw new InvalidArrowException(childPath, "is NULL");
            }
            MemorySegment childArray = child.reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
            validate(childArray, field.children().get(i), childPath, depth + 1);
            long childLength = childArray.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
            childLengths[i] = childLength;
            long needed;
            String parent;
            if (type instanceof ArrowType.Struct) {
                needed = offset + length;
                parent = "struct's offset + length";
            } else if (type instanceof ArrowType.Union u && u.mode() == ArrowType.UnionMode.SPARSE) {
                needed = offset + length;
                parent = "sparse union's offset + length";
            } else if (type instanceof ArrowType.FixedSizeList l) {
                needed = multiply(offset + length, l.listSize(), childPath);
                parent = "fixed-size list's (offset + length) x list size";
            } else {
                needed = 0;
                parent = "";
            }
            if (childLength < needed) {
                throw new InvalidArrowException(Paths.join(childPath, "length"), "is " + childLength
                        + ", shorter than the parent " + parent + " (" + needed + ")");
            }
        }
        if (type instanceof ArrowType.RunEndEncoded) {
            if (childLengths[0] != childLengths[1]) {
                throw new InvalidArrowException(Paths.index(path, "children", 1) + ".length", "is " + childLengths[1]
                        + " but run_ends has " + childLengths[0] + " entries (one value per run)");
            }
            MemorySegment runEnds = children.getAtIndex(ADDRESS, 0).reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
            if (runEnds.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT) != 0) {
                throw new InvalidArrowException(Paths.index(path, "children", 0) + ".null_count", "run ends must not be null");
            }
            if (length > 0 && childLengths[0] == 0) {
                throw new InvalidArrowException(Paths.index(path, "children", 0) + ".length", "is 0 but the array has " + length + " values");
            }
        }
    }

    private static long multiply(long slots, long size, String path) {
        try {
            return Math.multiplyExact(slots, size);
        } catch (ArithmeticException e) {
            throw new InvalidArrowException(path, "fixed-size list of " + size + " x " + slots + " slots overflows");
        }
    }
}
