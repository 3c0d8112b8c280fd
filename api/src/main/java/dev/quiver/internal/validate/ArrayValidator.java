package dev.quiver.internal.validate;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.function.BiFunction;

/**
 * Structural validation of an imported ArrowArray against its field: counts, lengths, offsets, buffer
 * presence, child lengths and overflow of offset + length. Reads only the structs, never buffer contents,
 * so it is safe for any device and runs on every import. Faults go to a {@link Faults} sink: import
 * stops at the first, the conformance checker collects them all. With a sink that stops at the first
 * fault, the structs are walked once without field paths (allocating nothing) and, only if a fault is
 * found, again to name its path (see {@link FirstFault}). Stateless; safe from any thread.
 */
public final class ArrayValidator {
    /** Largest offset + length accepted: keeps every derived byte size (x 16 for views) within a long. */
    static final long MAX_SLOTS = Long.MAX_VALUE / 256;
    /** Most children or buffers a node may declare before the count is taken as garbage. */
    private static final long MAX_POINTERS = 1 << 20;
    private static final long STRUCT_SIZE = ArrowArrayLayout.LAYOUT.byteSize();

    private ArrayValidator() {}

    /**
     * @param array   a live ArrowArray
     * @param field   the field its schema describes
     * @param invalid makes the exception for the first fault from its field path and rule
     */
    public static void validate(MemorySegment array, Field field, BiFunction<String, String, ? extends RuntimeException> invalid) {
        validate(array.address(), field, "", Faults.throwing(invalid));
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
        validate(array.address(), field, path, faults);
    }

    /**
     * Validates the ArrowArray at a raw address, reporting paths from the root.
     *
     * @param array  the address of an ArrowArray
     * @param field  the field its schema describes
     * @param faults where faults go
     */
    public static void validate(long array, Field field, Faults faults) {
        validate(array, field, "", faults);
    }

    private static void validate(long array, Field field, String path, Faults faults) {
        FirstFault.run(ArrayValidator::root, array, field, path, faults);
    }

    private static void root(long array, Field field, String path, Faults faults) {
        node(array, field, path, 0, faults);
    }

    private static void node(long array, Field field, String path, int depth, Faults faults) {
        if (depth > SchemaReader.MAX_DEPTH) {
            FirstFault.report(faults, Fault.ARRAY_DEPTH, path, "nesting deeper than " + SchemaReader.MAX_DEPTH + " levels");
            return;
        }
        if (RawMemory.getAddress(array + ArrowArrayLayout.RELEASE) == 0) {
            FirstFault.report(faults, Fault.ARRAY_RELEASED, Paths.join(path, "release"), "is NULL: the array is released");
            return;
        }
        long length = RawMemory.getLong(array + ArrowArrayLayout.LENGTH);
        long nullCount = RawMemory.getLong(array + ArrowArrayLayout.NULL_COUNT);
        long offset = RawMemory.getLong(array + ArrowArrayLayout.OFFSET);
        boolean sized = true;
        if (length < 0) {
            FirstFault.report(faults, Fault.ARRAY_LENGTH, Paths.join(path, "length"), "is negative (" + length + ")");
            sized = false;
        }
        if (offset < 0) {
            FirstFault.report(faults, Fault.ARRAY_OFFSET, Paths.join(path, "offset"), "is negative (" + offset + ")");
            sized = false;
        }
        if (sized && (length > MAX_SLOTS || offset > MAX_SLOTS - length)) {
            FirstFault.report(faults, Fault.ARRAY_OFFSET, Paths.join(path, "offset"), "offset + length overflows the addressable range (" + offset + " + " + length + ")");
            sized = false;
        }
        if (nullCount < -1 || (length >= 0 && nullCount > length)) {
            FirstFault.report(faults, Fault.ARRAY_NULL_COUNT, Paths.join(path, "null_count"), "is " + nullCount + ", must be -1 or 0.." + length);
        }
        if (field == null) {
            anyType(array, path, depth, faults);
            return;
        }
        ArrowType type = field.type();
        BufferLayout layout = BufferLayout.of(type);
        if (type instanceof ArrowType.Null && nullCount != length && nullCount != -1) {
            FirstFault.report(faults, Fault.ARRAY_NULL_COUNT, Paths.join(path, "null_count"), "is " + nullCount + " but a null array of length " + length + " has every value null");
        }
        if ((type instanceof ArrowType.Union || type instanceof ArrowType.RunEndEncoded) && nullCount != 0) {
            FirstFault.report(faults, Fault.ARRAY_NULL_COUNT, Paths.join(path, "null_count"), "is " + nullCount + " but " + type.format()
                    + " arrays have no validity bitmap (must be 0)");
        }
        checkBuffers(array, layout, length, nullCount, type, path, faults);
        checkChildren(array, field, sized, length, offset, path, depth, faults);
        long dictionary = RawMemory.getAddress(array + ArrowArrayLayout.DICTIONARY);
        if (field.dictionary() == null && dictionary != 0) {
            FirstFault.report(faults, Fault.ARRAY_DICTIONARY, Paths.join(path, "dictionary"), "is set but the schema is not dictionary-encoded");
        }
        if (field.dictionary() != null) {
            if (dictionary == 0) {
                FirstFault.report(faults, Fault.ARRAY_DICTIONARY, Paths.join(path, "dictionary"), "is NULL but the schema is dictionary-encoded");
            } else if (FirstFault.struct(faults, dictionary, STRUCT_SIZE, Paths.join(path, "dictionary"))) {
                node(dictionary, field.dictionary().values(), Paths.join(path, "dictionary"), depth + 1, faults);
            }
        }
    }

    /** The rules that hold whatever the type, when no schema says what the array is. */
    private static void anyType(long array, String path, int depth, Faults faults) {
        long nBuffers = RawMemory.getLong(array + ArrowArrayLayout.N_BUFFERS);
        long buffers = RawMemory.getAddress(array + ArrowArrayLayout.BUFFERS);
        if (nBuffers < 0 || nBuffers > MAX_POINTERS) {
            FirstFault.report(faults, Fault.ARRAY_BUFFER_COUNT, Paths.join(path, "n_buffers"), "is " + nBuffers + ", no format has that many");
        } else if (nBuffers > 0 && buffers == 0) {
            FirstFault.report(faults, Fault.ARRAY_BUFFER_NULL, Paths.join(path, "buffers"), "is NULL but n_buffers is " + nBuffers);
        } else if (nBuffers > 0) {
            FirstFault.struct(faults, buffers, nBuffers * Long.BYTES, Paths.join(path, "buffers"));
        }
        long nChildren = RawMemory.getLong(array + ArrowArrayLayout.N_CHILDREN);
        if (nChildren < 0 || nChildren > MAX_POINTERS) {
            FirstFault.report(faults, Fault.ARRAY_CHILD_COUNT, Paths.join(path, "n_children"), "is " + nChildren + ", must be 0.." + MAX_POINTERS);
            return;
        }
        long children = children(array, nChildren, path, faults);
        for (int i = 0; children != 0 && i < nChildren; i++) {
            long child = child(children, i, path, faults);
            if (child != 0) {
                node(child, null, Paths.index(path, "children", i), depth + 1, faults);
            }
        }
        long dictionary = RawMemory.getAddress(array + ArrowArrayLayout.DICTIONARY);
        if (dictionary != 0 && FirstFault.struct(faults, dictionary, STRUCT_SIZE, Paths.join(path, "dictionary"))) {
            node(dictionary, null, Paths.join(path, "dictionary"), depth + 1, faults);
        }
    }

    private static void checkBuffers(long array, BufferLayout layout, long length, long nullCount, ArrowType type, String path, Faults faults) {
        long nBuffers = RawMemory.getLong(array + ArrowArrayLayout.N_BUFFERS);
        if (!layout.acceptsBufferCount(nBuffers)) {
            FirstFault.report(faults, Fault.ARRAY_BUFFER_COUNT, Paths.join(path, "n_buffers"), "is " + nBuffers + " but format \"" + type.format()
                    + "\" has " + (layout.variadic() ? "at least " + (layout.bufferCount() + 1) : layout.bufferCount()) + " buffers");
            return;
        }
        if (nBuffers > MAX_POINTERS) {
            FirstFault.report(faults, Fault.ARRAY_BUFFER_COUNT, Paths.join(path, "n_buffers"), "is " + nBuffers + ", more than " + MAX_POINTERS + " variadic buffers");
            return;
        }
        long buffers = RawMemory.getAddress(array + ArrowArrayLayout.BUFFERS);
        if (nBuffers > 0 && buffers == 0) {
            FirstFault.report(faults, Fault.ARRAY_BUFFER_NULL, Paths.join(path, "buffers"), "is NULL but n_buffers is " + nBuffers);
            return;
        }
        if (nBuffers > 0 && !FirstFault.struct(faults, buffers, nBuffers * Long.BYTES, Paths.join(path, "buffers"))) {
            return;
        }
        int fixed = layout.bufferCount();
        for (int i = 0; i < nBuffers; i++) {
            if (RawMemory.getAddress(buffers + (long) i * Long.BYTES) != 0) {
                continue;
            }
            boolean allowed;
            if (i >= fixed) {
                allowed = i != nBuffers - 1 || nBuffers == fixed + 1;
            } else {
                allowed = switch (layout.buffers().get(i).kind()) {
                    case VALIDITY -> nullCount == 0 || length == 0;
                    case DATA -> true;
                    default -> length == 0;
                };
            }
            if (!allowed) {
                FirstFault.report(faults, Fault.ARRAY_BUFFER_NULL, Paths.index(path, "buffers", i), "the " + layout.bufferName(i, nBuffers)
                        + " buffer is NULL but " + nullBufferRule(layout, i, nBuffers, length, nullCount));
            }
        }
    }

    /** @return why buffer {@code i} may not be NULL, for the message */
    private static String nullBufferRule(BufferLayout layout, int i, long nBuffers, long length, long nullCount) {
        if (i >= layout.bufferCount()) {
            return "there are " + (nBuffers - layout.bufferCount() - 1) + " variadic buffers";
        }
        return layout.buffers().get(i).kind() == BufferLayout.Kind.VALIDITY ? "null_count is " + nullCount : "length is " + length;
    }

    private static void checkChildren(long array, Field field, boolean sized, long length, long offset, String path, int depth, Faults faults) {
        long nChildren = RawMemory.getLong(array + ArrowArrayLayout.N_CHILDREN);
        if (nChildren != field.children().size()) {
            FirstFault.report(faults, Fault.ARRAY_CHILD_COUNT, Paths.join(path, "n_children"),
                    "is " + nChildren + " but the schema has " + field.children().size() + " children");
            return;
        }
        long children = children(array, nChildren, path, faults);
        if (children == 0) {
            return;
        }
        ArrowType type = field.type();
        long runEndsLength = 0;
        long valuesLength = 0;
        boolean runEndsPresent = false;
        boolean valuesPresent = false;
        for (int i = 0; i < nChildren; i++) {
            long childArray = child(children, i, path, faults);
            if (childArray == 0) {
                continue;
            }
            String childPath = Paths.index(path, "children", i);
            node(childArray, field.children().get(i), childPath, depth + 1, faults);
            long childLength = RawMemory.getLong(childArray + ArrowArrayLayout.LENGTH);
            if (i == 0) {
                runEndsLength = childLength;
                runEndsPresent = true;
            } else if (i == 1) {
                valuesLength = childLength;
                valuesPresent = true;
            }
            if (!sized) {
                continue;
            }
            long needed = neededLength(type, offset + length, childPath, faults);
            if (childLength < needed) {
                FirstFault.report(faults, Fault.ARRAY_CHILD_LENGTH, Paths.join(childPath, "length"), "is " + childLength
                        + ", shorter than the parent " + parentRule(type) + " (" + needed + ")");
            }
        }
        if (type instanceof ArrowType.RunEndEncoded && runEndsPresent && valuesPresent) {
            runEnds(children, runEndsLength, valuesLength, length, path, faults);
        }
    }

    /**
     * The length a child must have at least: struct and sparse union children are indexed like their
     * parent, fixed-size list children {@code listSize} times as far. Dense unions, lists, maps, list views
     * and run-end encoded arrays reach their children through offsets, sizes or run ends, so no child length
     * follows from the parent's; the other types have no children.
     */
    private static long neededLength(ArrowType type, long slots, String childPath, Faults faults) {
        if (type instanceof ArrowType.Struct || type instanceof ArrowType.Union u && u.mode() == ArrowType.UnionMode.SPARSE) {
            return slots;
        }
        return type instanceof ArrowType.FixedSizeList l ? multiply(slots, l.listSize(), childPath, faults) : 0;
    }

    /** @return what a child's length must cover, for the message */
    private static String parentRule(ArrowType type) {
        return switch (type) {
            case ArrowType.Struct _ -> "struct's offset + length";
            case ArrowType.FixedSizeList _ -> "fixed-size list's (offset + length) x list size";
            default -> "sparse union's offset + length";
        };
    }

    private static void runEnds(long children, long runEndsLength, long valuesLength, long length, String path, Faults faults) {
        if (runEndsLength != valuesLength) {
            FirstFault.report(faults, Fault.ARRAY_RUN_ENDS, Paths.join(Paths.index(path, "children", 1), "length"), "is " + valuesLength
                    + " but run_ends has " + runEndsLength + " entries (one value per run)");
        }
        long runEnds = RawMemory.getAddress(children);
        if (RawMemory.getLong(runEnds + ArrowArrayLayout.NULL_COUNT) != 0) {
            FirstFault.report(faults, Fault.ARRAY_RUN_ENDS, Paths.join(Paths.index(path, "children", 0), "null_count"), "run ends must not be null");
        }
        if (length > 0 && runEndsLength == 0) {
            FirstFault.report(faults, Fault.ARRAY_RUN_ENDS, Paths.join(Paths.index(path, "children", 0), "length"), "is 0 but the array has " + length + " values");
        }
    }

    /** @return the address of the readable array of {@code n} child pointers, or 0 (after reporting, if {@code n > 0}) */
    private static long children(long array, long n, String path, Faults faults) {
        long children = RawMemory.getAddress(array + ArrowArrayLayout.CHILDREN);
        if (n == 0) {
            return 0;
        }
        if (children == 0) {
            FirstFault.report(faults, Fault.ARRAY_CHILD_NULL, Paths.join(path, "children"), "is NULL but n_children is " + n);
            return 0;
        }
        return FirstFault.struct(faults, children, n * Long.BYTES, Paths.join(path, "children")) ? children : 0;
    }

    /** @return the address of child {@code i} as a readable struct, or 0 (after reporting) */
    private static long child(long children, int i, String path, Faults faults) {
        long child = RawMemory.getAddress(children + (long) i * Long.BYTES);
        if (child == 0) {
            FirstFault.report(faults, Fault.ARRAY_CHILD_NULL, Paths.index(path, "children", i), "is NULL");
            return 0;
        }
        return FirstFault.struct(faults, child, STRUCT_SIZE, Paths.index(path, "children", i)) ? child : 0;
    }

    private static long multiply(long slots, long size, String path, Faults faults) {
        try {
            return Math.multiplyExact(slots, size);
        } catch (ArithmeticException e) {
            FirstFault.report(faults, Fault.ARRAY_OFFSET, path, "fixed-size list of " + size + " x " + slots + " slots overflows");
            return 0;
        }
    }
}
