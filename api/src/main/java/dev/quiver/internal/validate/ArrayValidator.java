package dev.quiver.internal.validate;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.function.BiFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Structural validation of an imported ArrowArray against its field: counts, lengths, offsets, buffer
 * presence, child lengths and overflow of offset + length. Reads only the structs, never buffer contents,
 * so it is safe for any device and runs on every import. Faults go to a {@link Faults} sink: import
 * stops at the first, the conformance checker collects them all.
 */
public final class ArrayValidator {
    /** Largest offset + length accepted: keeps every derived byte size (x 16 for views) within a long. */
    static final long MAX_SLOTS = Long.MAX_VALUE / 256;
    /** Most children or buffers a node may declare before the count is taken as garbage. */
    private static final long MAX_POINTERS = 1 << 20;
    private static final long STRUCT_SIZE = ArrowArrayLayout.LAYOUT.byteSize();

    private final Faults faults;

    private ArrayValidator(Faults faults) {
        this.faults = faults;
    }

    /**
     * @param array   a live ArrowArray
     * @param field   the field its schema describes
     * @param invalid makes the exception for the first fault from its field path and rule
     */
    public static void validate(MemorySegment array, Field field, BiFunction<String, String, ? extends RuntimeException> invalid) {
        validate(array, field, "", Faults.throwing(invalid));
    }

    /**
     * Validates into a sink that may collect every fault.
     *
     * @param array  an ArrowArray
     * @param field  the field its schema describes, or null when no schema is known: then only the rules
     *               that hold for every type are checked, down the whole tree
     * @param path   the path of {@code array} itself, prefixed to every reported path ({@code ""} for none)
     * @param faults where faults go
     */
    public static void validate(MemorySegment array, Field field, String path, Faults faults) {
        new ArrayValidator(faults).node(Pointers.bytes(array, STRUCT_SIZE), field, path, 0);
    }

    private void node(MemorySegment array, Field field, String path, int depth) {
        if (depth > SchemaReader.MAX_DEPTH) {
            faults.report(Fault.ARRAY_DEPTH, path, "nesting deeper than " + SchemaReader.MAX_DEPTH + " levels");
            return;
        }
        if (array.get(ADDRESS, ArrowArrayLayout.RELEASE).equals(MemorySegment.NULL)) {
            faults.report(Fault.ARRAY_RELEASED, Paths.join(path, "release"), "is NULL: the array is released");
            return;
        }
        long length = array.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        long nullCount = array.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT);
        long offset = array.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        boolean sized = true;
        if (length < 0) {
            faults.report(Fault.ARRAY_LENGTH, Paths.join(path, "length"), "is negative (" + length + ")");
            sized = false;
        }
        if (offset < 0) {
            faults.report(Fault.ARRAY_OFFSET, Paths.join(path, "offset"), "is negative (" + offset + ")");
            sized = false;
        }
        if (sized && (length > MAX_SLOTS || offset > MAX_SLOTS - length)) {
            faults.report(Fault.ARRAY_OFFSET, Paths.join(path, "offset"), "offset + length overflows the addressable range (" + offset + " + " + length + ")");
            sized = false;
        }
        if (nullCount < -1 || (length >= 0 && nullCount > length)) {
            faults.report(Fault.ARRAY_NULL_COUNT, Paths.join(path, "null_count"), "is " + nullCount + ", must be -1 or 0.." + length);
        }
        if (field == null) {
            anyType(array, path, depth);
            return;
        }
        ArrowType type = field.type();
        BufferLayout layout = BufferLayout.of(type);
        if (type instanceof ArrowType.Null && nullCount != length && nullCount != -1) {
            faults.report(Fault.ARRAY_NULL_COUNT, Paths.join(path, "null_count"), "is " + nullCount + " but a null array of length " + length + " has every value null");
        }
        if ((type instanceof ArrowType.Union || type instanceof ArrowType.RunEndEncoded) && nullCount != 0) {
            faults.report(Fault.ARRAY_NULL_COUNT, Paths.join(path, "null_count"), "is " + nullCount + " but " + type.format()
                    + " arrays have no validity bitmap (must be 0)");
        }
        checkBuffers(array, layout, length, nullCount, type, path);
        checkChildren(array, field, sized, length, offset, path, depth);
        MemorySegment dictionary = array.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        if (field.dictionary() == null && !dictionary.equals(MemorySegment.NULL)) {
            faults.report(Fault.ARRAY_DICTIONARY, Paths.join(path, "dictionary"), "is set but the schema is not dictionary-encoded");
        }
        if (field.dictionary() != null) {
            if (dictionary.equals(MemorySegment.NULL)) {
                faults.report(Fault.ARRAY_DICTIONARY, Paths.join(path, "dictionary"), "is NULL but the schema is dictionary-encoded");
            } else if (faults.struct(dictionary, STRUCT_SIZE, Paths.join(path, "dictionary"))) {
                node(Pointers.bytes(dictionary, STRUCT_SIZE), field.dictionary().values(), Paths.join(path, "dictionary"), depth + 1);
            }
        }
    }

    /** The rules that hold whatever the type, when no schema says what the array is. */
    private void anyType(MemorySegment array, String path, int depth) {
        long nBuffers = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        if (nBuffers < 0 || nBuffers > MAX_POINTERS) {
            faults.report(Fault.ARRAY_BUFFER_COUNT, Paths.join(path, "n_buffers"), "is " + nBuffers + ", no format has that many");
        } else if (nBuffers > 0 && array.get(ADDRESS, ArrowArrayLayout.BUFFERS).equals(MemorySegment.NULL)) {
            faults.report(Fault.ARRAY_BUFFER_NULL, Paths.join(path, "buffers"), "is NULL but n_buffers is " + nBuffers);
        } else if (nBuffers > 0) {
            faults.struct(array.get(ADDRESS, ArrowArrayLayout.BUFFERS), nBuffers * ADDRESS.byteSize(), Paths.join(path, "buffers"));
        }
        long nChildren = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        if (nChildren < 0 || nChildren > MAX_POINTERS) {
            faults.report(Fault.ARRAY_CHILD_COUNT, Paths.join(path, "n_children"), "is " + nChildren + ", must be 0.." + MAX_POINTERS);
            return;
        }
        MemorySegment children = children(array, nChildren, path);
        for (int i = 0; children != null && i < nChildren; i++) {
            MemorySegment child = child(children, i, path);
            if (child != null) {
                node(child, null, Paths.index(path, "children", i), depth + 1);
            }
        }
        MemorySegment dictionary = array.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        if (!dictionary.equals(MemorySegment.NULL) && faults.struct(dictionary, STRUCT_SIZE, Paths.join(path, "dictionary"))) {
            node(Pointers.bytes(dictionary, STRUCT_SIZE), null, Paths.join(path, "dictionary"), depth + 1);
        }
    }

    private void checkBuffers(MemorySegment array, BufferLayout layout, long length, long nullCount,
                              ArrowType type, String path) {
        long nBuffers = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        if (!layout.acceptsBufferCount(nBuffers)) {
            faults.report(Fault.ARRAY_BUFFER_COUNT, Paths.join(path, "n_buffers"), "is " + nBuffers + " but format \"" + type.format()
                    + "\" has " + (layout.variadic() ? "at least " + (layout.bufferCount() + 1) : layout.bufferCount()) + " buffers");
            return;
        }
        if (nBuffers > MAX_POINTERS) {
            faults.report(Fault.ARRAY_BUFFER_COUNT, Paths.join(path, "n_buffers"), "is " + nBuffers + ", more than " + MAX_POINTERS + " variadic buffers");
            return;
        }
        MemorySegment buffers = array.get(ADDRESS, ArrowArrayLayout.BUFFERS);
        if (nBuffers > 0 && buffers.equals(MemorySegment.NULL)) {
            faults.report(Fault.ARRAY_BUFFER_NULL, Paths.join(path, "buffers"), "is NULL but n_buffers is " + nBuffers);
            return;
        }
        if (nBuffers > 0 && !faults.struct(buffers, nBuffers * ADDRESS.byteSize(), Paths.join(path, "buffers"))) {
            return;
        }
        buffers = Pointers.pointers(buffers, nBuffers);
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
                faults.report(Fault.ARRAY_BUFFER_NULL, Paths.index(path, "buffers", i), "the " + layout.bufferName(i, nBuffers)
                        + " buffer is NULL but " + because);
            }
        }
    }

    private void checkChildren(MemorySegment array, Field field, boolean sized, long length, long offset, String path, int depth) {
        long nChildren = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        if (nChildren != field.children().size()) {
            faults.report(Fault.ARRAY_CHILD_COUNT, Paths.join(path, "n_children"),
                    "is " + nChildren + " but the schema has " + field.children().size() + " children");
            return;
        }
        MemorySegment children = children(array, nChildren, path);
        if (children == null) {
            return;
        }
        long[] childLengths = new long[(int) nChildren];
        boolean[] present = new boolean[(int) nChildren];
        ArrowType type = field.type();
        for (int i = 0; i < nChildren; i++) {
            String childPath = Paths.index(path, "children", i);
            MemorySegment childArray = child(children, i, path);
            if (childArray == null) {
                continue;
            }
            node(childArray, field.children().get(i), childPath, depth + 1);
            long childLength = childArray.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
            childLengths[i] = childLength;
            present[i] = true;
            if (!sized) {
                continue;
            }
            long needed;
            String parent;
            switch (type) {
                case ArrowType.Struct _ -> {
                    needed = offset + length;
                    parent = "struct's offset + length";
                }
                case ArrowType.Union u when u.mode() == ArrowType.UnionMode.SPARSE -> {
                    needed = offset + length;
                    parent = "sparse union's offset + length";
                }
                case ArrowType.FixedSizeList l -> {
                    needed = multiply(offset + length, l.listSize(), childPath);
                    parent = "fixed-size list's (offset + length) x list size";
                }
                // dense unions, lists, maps and run-end encoded arrays reach their children through offsets or run
                // ends, so no child length follows from the parent's; the other types have no children
                case ArrowType.Union _, ArrowType.ListType _, ArrowType.LargeList _, ArrowType.ListView _,
                     ArrowType.LargeListView _, ArrowType.MapType _, ArrowType.RunEndEncoded _,
                     ArrowType.Null _, ArrowType.Bool _, ArrowType.Int _, ArrowType.FloatingPoint _, ArrowType.Decimal _,
                     ArrowType.FixedSizeBinary _, ArrowType.Binary _, ArrowType.LargeBinary _, ArrowType.BinaryView _,
                     ArrowType.Utf8 _, ArrowType.LargeUtf8 _, ArrowType.Utf8View _, ArrowType.Date _, ArrowType.Time _,
                     ArrowType.Timestamp _, ArrowType.Duration _, ArrowType.Interval _ -> {
                    needed = 0;
                    parent = "";
                }
            }
            if (childLength < needed) {
                faults.report(Fault.ARRAY_CHILD_LENGTH, Paths.join(childPath, "length"), "is " + childLength
                        + ", shorter than the parent " + parent + " (" + needed + ")");
            }
        }
        if (type instanceof ArrowType.RunEndEncoded && present[0] && present[1]) {
            runEnds(children, childLengths, length, path);
        }
    }

    private void runEnds(MemorySegment children, long[] childLengths, long length, String path) {
        if (childLengths[0] != childLengths[1]) {
            faults.report(Fault.ARRAY_RUN_ENDS, Paths.index(path, "children", 1) + ".length", "is " + childLengths[1]
                    + " but run_ends has " + childLengths[0] + " entries (one value per run)");
        }
        MemorySegment runEnds = Pointers.bytes(children.getAtIndex(ADDRESS, 0), STRUCT_SIZE);
        if (runEnds.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT) != 0) {
            faults.report(Fault.ARRAY_RUN_ENDS, Paths.index(path, "children", 0) + ".null_count", "run ends must not be null");
        }
        if (length > 0 && childLengths[0] == 0) {
            faults.report(Fault.ARRAY_RUN_ENDS, Paths.index(path, "children", 0) + ".length", "is 0 but the array has " + length + " values");
        }
    }

    /** @return the readable array of {@code n} child pointers, or null (after reporting) if it cannot be read */
    private MemorySegment children(MemorySegment array, long n, String path) {
        MemorySegment children = array.get(ADDRESS, ArrowArrayLayout.CHILDREN);
        if (n > 0 && children.equals(MemorySegment.NULL)) {
            faults.report(Fault.ARRAY_CHILD_NULL, Paths.join(path, "children"), "is NULL but n_children is " + n);
            return null;
        }
        if (n > 0 && !faults.struct(children, n * ADDRESS.byteSize(), Paths.join(path, "children"))) {
            return null;
        }
        return Pointers.pointers(children, n);
    }

    /** @return child {@code i} as a readable struct, or null (after reporting) */
    private MemorySegment child(MemorySegment children, int i, String path) {
        String childPath = Paths.index(path, "children", i);
        MemorySegment child = children.getAtIndex(ADDRESS, i);
        if (child.equals(MemorySegment.NULL)) {
            faults.report(Fault.ARRAY_CHILD_NULL, childPath, "is NULL");
            return null;
        }
        return faults.struct(child, STRUCT_SIZE, childPath) ? Pointers.bytes(child, STRUCT_SIZE) : null;
    }

    private long multiply(long slots, long size, String path) {
        try {
            return Math.multiplyExact(slots, size);
        } catch (ArithmeticException e) {
            faults.report(Fault.ARRAY_OFFSET, path, "fixed-size list of " + size + " x " + slots + " slots overflows");
            return 0;
        }
    }
}
