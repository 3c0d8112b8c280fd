package dev.quiver.host;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.ProducerTrust;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.ArrayData;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.bridge.ArrayAccess;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An Arrow array of any type described by Java values: an immutable value that owns no native memory.
 * Build one with {@link #of(Field, List)} (every type) or the shortcuts, without boxing with
 * {@link FixedWidthVectors} and {@link BinaryVectors}, slice it with {@link #slice}, and turn it into a CPU
 * {@link DeviceArray} (64-byte aligned buffers) with {@link #toDeviceArray()}. Vectors from
 * {@link FixedWidthVectors} wrap the caller's primitive array, which must not change while they are in
 * use; every other vector holds copies of what it was given. Any thread may read a vector.
 *
 * <p><b>The Java mapping</b>, shared with {@link ArrayReader#values()}: null as {@code null}; booleans as
 * {@link Boolean}; integers, dates, times, timestamps, durations and year-month intervals as {@link Long}
 * (unsigned 64-bit as their bits); floats as {@link Double}; decimals as {@link java.math.BigDecimal} with
 * the type's scale; utf8 (all three layouts) as {@link String}; binary (all layouts, fixed-size too) as a
 * read-only {@link ByteBuffer}; day-time and month-day-nano intervals as {@link IntervalDayTime} and
 * {@link IntervalMonthDayNano}; every list layout as {@link List}; structs as an ordered {@link Map} from
 * member name to value; maps as a {@link List} of {@link Map.Entry}; unions as {@link UnionValue} (a null
 * given for a union slot is stored as a null of its first member, since unions have no validity); dictionary
 * and run-end encoded arrays as their decoded values. Builders also accept any {@link Number}, and
 * {@code byte[]} for binary.
 *
 * {@snippet class=dev.quiver.snippets.HostSnippets region=struct}
 */
public final class HostVector {
    /** Alignment of every buffer {@link #toDeviceArray} writes, as Arrow recommends. */
    private static final long ALIGNMENT = 64;

    private final Field field;
    private final List<Object> values;
    private final HostEncoder.Node node;
    private final long offset;
    private final long length;

    private HostVector(Field field, List<Object> values, HostEncoder.Node node, long offset, long length) {
        this.field = field;
        this.values = values;
        this.node = node;
        this.offset = offset;
        this.length = length;
    }

    /**
     * Encodes values of any type.
     *
     * @param field  the field (type, children, dictionary encoding)
     * @param values values in the Java mapping; null for null
     * @return the array
     * @throws IllegalArgumentException if a value does not fit the type
     * @throws ClassCastException       if a value has the wrong Java type
     */
    public static HostVector of(Field field, List<?> values) {
        List<Object> copy = Collections.unmodifiableList(new ArrayList<>(values));
        return new HostVector(field, copy, HostEncoder.encode(field, copy), 0, copy.size());
    }

    /** Wraps an array encoded straight into heap buffers; its values are read back from them on demand. */
    static HostVector ofEncoded(Field field, HostEncoder.Node node) {
        List<Object> values = new EncodedValues(new ArrayReader(node, field, 0, node.length()));
        return new HostVector(field, values, node, 0, node.length());
    }

    // ---- shortcuts ----------------------------------------------------------------------------

    /**
     * {@return a null-type array}
     * @param name   field name
     * @param length number of (null) values
     */
    public static HostVector nulls(String name, int length) {
        return of(Field.of(name, ArrowType.nullType(), true), Collections.nCopies(length, null));
    }

    /**
     * {@return a boolean array}
     * @param name   field name
     * @param values values, null for null
     */
    public static HostVector bool(String name, Boolean... values) {
        return of(Field.of(name, ArrowType.bool(), true), Arrays.asList(values));
    }

    /**
     * {@return an integer array}
     * @param name     field name
     * @param bitWidth 8, 16, 32 or 64
     * @param signed   signedness
     * @param values   values (truncated to the width; unsigned 64-bit as bits), null for null
     */
    public static HostVector integers(String name, int bitWidth, boolean signed, Long... values) {
        ArrowType.Int type = new ArrowType.Int(bitWidth, signed);
        List<Object> normalised = new ArrayList<>();
        for (Long v : values) {
            normalised.add(v == null ? null : normalise(type, v));
        }
        return of(Field.of(name, type, true), normalised);
    }

    /**
     * {@return an int32 array}
     * @param name   field name
     * @param values values, null for null
     */
    public static HostVector int32(String name, Integer... values) {
        return of(Field.of(name, ArrowType.integer(32, true), true), longs(values));
    }

    /**
     * {@return an int64 array}
     * @param name   field name
     * @param values values, null for null
     */
    public static HostVector int64(String name, Long... values) {
        return of(Field.of(name, ArrowType.integer(64, true), true), Arrays.asList(values));
    }

    /**
     * {@return a floating-point array}
     * @param name     field name
     * @param bitWidth 16 (half; rounded to nearest), 32 or 64
     * @param values   values, null for null
     */
    public static HostVector floats(String name, int bitWidth, Double... values) {
        return of(Field.of(name, ArrowType.floatingPoint(bitWidth), true), roundTo(bitWidth, values));
    }

    /**
     * {@return a float64 array}
     * @param name   field name
     * @param values values, null for null
     */
    public static HostVector float64(String name, Double... values) {
        return floats(name, 64, values);
    }

    /**
     * {@return a utf8 array}
     * @param name   field name
     * @param values strings, null for null
     */
    public static HostVector utf8(String name, String... values) {
        return of(Field.of(name, ArrowType.utf8(), true), Arrays.asList(values));
    }

    /**
     * {@return a binary array}
     * @param name   field name
     * @param values byte strings, null for null
     */
    public static HostVector binary(String name, byte[]... values) {
        return of(Field.of(name, ArrowType.binary(), true), buffers(values));
    }

    /**
     * {@return a list array}
     * @param name     field name
     * @param elements the concatenated elements of all lists
     * @param lengths  the length of each list, null for a null list; they sum to at most the elements' length
     */
    public static HostVector list(String name, HostVector elements, Integer... lengths) {
        List<Object> all = elements.values();
        List<Object> lists = new ArrayList<>();
        int at = 0;
        for (Integer n : lengths) {
            if (n == null) {
                lists.add(null);
                continue;
            }
            if (at + n > all.size()) {
                throw new IllegalArgumentException("list lengths need more than the " + all.size() + " elements given");
            }
            lists.add(all.subList(at, at + n));
            at += n;
        }
        return of(Field.list(name, true, elements.field), lists);
    }

    /**
     * {@return a struct array without nulls}
     * @param name    field name
     * @param members member arrays, all of one length
     */
    public static HostVector struct(String name, HostVector... members) {
        return struct(name, null, members);
    }

    /**
     * {@return a struct array}
     * @param name    field name
     * @param valid   which structs are valid (null: all)
     * @param members member arrays, all at least as long as {@code valid}
     */
    public static HostVector struct(String name, boolean[] valid, HostVector... members) {
        int length = valid != null ? valid.length : members.length == 0 ? 0 : (int) members[0].length;
        for (HostVector member : members) {
            if (member.length < length) {
                throw new IllegalArgumentException("struct member " + member.field.name() + " has " + member.length + " values, need " + length);
            }
            if (member.offset != 0) {
                throw new IllegalArgumentException("struct member " + member.field.name() + " is a slice; pass the whole vector");
            }
        }
        byte[] validity = null;
        long nulls = 0;
        if (valid != null) {
            validity = new byte[(length + 7) / 8];
            for (int i = 0; i < length; i++) {
                if (valid[i]) {
                    validity[i >>> 3] |= (byte) (1 << (i & 7));
                } else {
                    nulls++;
                }
            }
        }
        HostEncoder.Node node = new HostEncoder.Node(length, nulls, List.of(HostEncoder.heap(validity)),
                Arrays.stream(members).map(m -> m.node).toList(), null);
        List<Object> rows = new StructRows(valid == null ? null : valid.clone(), length, List.of(members));
        return new HostVector(Field.struct(name, true, Arrays.stream(members).map(m -> m.field).toList()), rows, node, 0, length);
    }

    /** The values of an encoded array, read from its heap buffers on demand. */
    private static final class EncodedValues extends AbstractList<Object> implements RandomAccess {
        private final ArrayReader reader;

        EncodedValues(ArrayReader reader) {
            this.reader = reader;
        }

        @Override
        public Object get(int i) {
            return reader.getObject(i);
        }

        @Override
        public int size() {
            return Math.toIntExact(reader.length());
        }
    }

    /** The rows of a struct composed from member vectors, built on demand so that big batches stay cheap. */
    private static final class StructRows extends AbstractList<Object> implements RandomAccess {
        private final boolean[] valid;
        private final int length;
        private final List<HostVector> members;

        StructRows(boolean[] valid, int length, List<HostVector> members) {
            this.valid = valid;
            this.length = length;
            this.members = members;
        }

        @Override
        public Object get(int i) {
            Objects.checkIndex(i, length);
            if (valid != null && !valid[i]) {
                return null;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            for (HostVector member : members) {
                row.put(member.field.name(), member.values.get(i));
            }
            return row;
        }

        @Override
        public int size() {
            return length;
        }
    }

    /**
     * {@return this array under another name, sharing its values and buffers}
     * @param name a new field name
     */
    public HostVector renamed(String name) {
        return new HostVector(new Field(name, field.type(), field.nullable(), field.children(), field.metadata(), field.dictionary()),
                values, node, offset, length);
    }

    // ---- operations ---------------------------------------------------------------------------

    /**
     * {@return a view of part of this array, exported with {@code offset} set (buffers are shared)}
     * @param offset first element of the slice, relative to this view
     * @param length number of elements
     */
    public HostVector slice(long offset, long length) {
        Objects.checkFromIndexSize(offset, length, this.length);
        return new HostVector(field, values, node, this.offset + offset, length);
    }

    /** {@return the field} */
    public Field field() {
        return field;
    }

    /** {@return the number of elements} */
    public long length() {
        return length;
    }

    /** {@return the number of null elements in this slice (0 for unions and run-end encoded arrays)} */
    public long nullCount() {
        if (field.dictionary() == null && (field.type() instanceof ArrowType.Union || field.type() instanceof ArrowType.RunEndEncoded)) {
            return 0;
        }
        if (field.dictionary() == null && field.type() instanceof ArrowType.Null) {
            return length;
        }
        if (offset == 0 && length == node.length()) {
            return node.nullCount();
        }
        MemorySegment validity = node.buffers().getFirst();
        return validity.equals(MemorySegment.NULL) ? 0 : Bitmaps.countClear(validity, offset, length);
    }

    /**
     * {@return the values of this slice in the Java mapping: as given to the builder, or, for vectors built
     * without boxing, read on demand from their buffers (for {@link FixedWidthVectors}, from the array
     * the vector wraps)}
     */
    public List<Object> values() {
        return values.subList((int) offset, (int) (offset + length));
    }

    /** {@return a CPU device array holding a copy of this data, owned by the caller} */
    public DeviceArray toDeviceArray() {
        return toDeviceArray(Devices.system());
    }

    /**
     * {@return a CPU device array holding a copy of this data, owned by the caller}
     * @param devices where the array will look for backends (its events and copies)
     */
    public DeviceArray toDeviceArray(Devices devices) {
        // every buffer in one C heap block, 64-byte aligned, freed by the release callback from any thread
        long bytes = ALIGNMENT - 1 + blockSize(node);
        long block = NativeHeap.malloc(bytes);
        ArrayData data;
        try {
            long[] next = {(block + ALIGNMENT - 1) & -ALIGNMENT};
            ArrayData whole = toNative(node, next);
            data = new ArrayData(length, nullCount(), offset, whole.buffers(), whole.children(), whole.dictionary());
        } catch (RuntimeException e) {
            NativeHeap.free(block);
            throw e;
        }
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment array = scratch.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = scratch.allocate(ArrowSchemaLayout.LAYOUT);
            StructWriter.writeDeviceArray(array, data, DeviceTypeCodes.CPU, -1, MemorySegment.NULL, () -> NativeHeap.free(block));
            StructWriter.writeSchema(schema, field);
            DeviceArray built = Interchange.importDevice(array, schema, ImportOptions.on(devices).trust(ProducerTrust.TRUSTED));
            ArrayAccess.markVerified(built);
            return built;
        }
    }

    /** {@return the bytes the buffers of {@code node} and its children and dictionary take, each rounded up to the alignment} */
    private static long blockSize(HostEncoder.Node node) {
        long total = 0;
        for (MemorySegment buffer : node.buffers()) {
            if (!buffer.equals(MemorySegment.NULL)) {
                total += alignUp(Math.max(buffer.byteSize(), 1));
            }
        }
        for (HostEncoder.Node child : node.children()) {
            total += blockSize(child);
        }
        return node.dictionary() == null ? total : total + blockSize(node.dictionary());
    }

    private static long alignUp(long bytes) {
        return (bytes + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /** Copies the buffers of {@code node} to {@code next[0]} onwards, advancing it. */
    private static ArrayData toNative(HostEncoder.Node node, long[] next) {
        List<MemorySegment> pointers = new ArrayList<>();
        for (MemorySegment buffer : node.buffers()) {
            if (buffer.equals(MemorySegment.NULL)) {
                pointers.add(MemorySegment.NULL);
            } else {
                long padded = alignUp(Math.max(buffer.byteSize(), 1));
                MemorySegment segment = Pointers.bytes(MemorySegment.ofAddress(next[0]), padded);
                next[0] += padded;
                MemorySegment.copy(buffer, 0, segment, 0, buffer.byteSize());
                // the padding up to the next 64 bytes reads as zeros, as Arrow recommends
                segment.asSlice(buffer.byteSize()).fill((byte) 0);
                pointers.add(segment);
            }
        }
        List<ArrayData> children = new ArrayList<>(node.children().size());
        for (HostEncoder.Node child : node.children()) {
            children.add(toNative(child, next));
        }
        ArrayData dictionary = node.dictionary() == null ? null : toNative(node.dictionary(), next);
        return new ArrayData(node.length(), node.nullCount(), 0, pointers, children, dictionary);
    }

    private static long normalise(ArrowType.Int type, long v) {
        return switch (type.bitWidth()) {
            case 8 -> type.signed() ? (byte) v : v & 0xFF;
            case 16 -> type.signed() ? (short) v : v & 0xFFFF;
            case 32 -> type.signed() ? (int) v : v & 0xFFFF_FFFFL;
            default -> v;
        };
    }

    private static List<Object> longs(Integer[] values) {
        List<Object> out = new ArrayList<>();
        for (Integer v : values) {
            out.add(v == null ? null : v.longValue());
        }
        return out;
    }

    private static List<Object> roundTo(int bitWidth, Double[] values) {
        List<Object> out = new ArrayList<>();
        for (Double v : values) {
            out.add(v == null ? null : switch (bitWidth) {
                case 16 -> (double) Float.float16ToFloat(Float.floatToFloat16(v.floatValue()));
                case 32 -> (double) v.floatValue();
                default -> v;
            });
        }
        return out;
    }

    private static List<Object> buffers(byte[][] values) {
        List<Object> out = new ArrayList<>();
        for (byte[] v : values) {
            out.add(v == null ? null : ByteBuffer.wrap(v.clone()).asReadOnlyBuffer());
        }
        return out;
    }
}
