package dev.quiver.host;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.ArrayData;
import dev.quiver.internal.StructWriter;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * An Arrow array described by Java values: an immutable value that owns no native memory. Build one with
 * the static factories, nest them with {@link #list} and {@link #struct}, slice with {@link #slice}, and turn
 * it into a CPU {@link DeviceArray} (64-byte aligned buffers) with {@link #toDeviceArray()}.
 *
 * <p>Values follow one Java mapping, shared with {@link ArrayReader#values()}: integers as {@link Long}
 * (unsigned 64-bit as their bits), floats as {@link Double}, booleans as {@link Boolean}, utf8 as
 * {@link String}, binary as a read-only {@link ByteBuffer}, lists as {@link List}, structs as an ordered
 * {@link Map} from member name to value, nulls as {@code null}.
 *
 * {@snippet :
 * HostVector batch = HostVector.struct("batch",
 *         HostVector.int32("id", 1, 2, null),
 *         HostVector.utf8("name", "a", null, "c"));
 * try (DeviceArray array = batch.toDeviceArray()) {
 *     System.out.println(ArrayReader.of(array).values());
 * }
 * }
 */
public final class HostVector {
    private final Field field;
    private final long length;
    private final long offset;
    private final byte[][] buffers;
    private final List<HostVector> children;

    private HostVector(Field field, long length, long offset, byte[][] buffers, List<HostVector> children) {
        this.field = field;
        this.length = length;
        this.offset = offset;
        this.buffers = buffers;
        this.children = List.copyOf(children);
    }

    // ---- factories ----------------------------------------------------------------------------

    /**
     * @param name   field name
     * @param length number of (null) values
     * @return a null-type array
     */
    public static HostVector nulls(String name, int length) {
        return new HostVector(Field.of(name, ArrowType.nullType(), true), length, 0, new byte[0][], List.of());
    }

    /**
     * @param name   field name
     * @param values values, null for null
     * @return a boolean array
     */
    public static HostVector bool(String name, Boolean... values) {
        byte[] bits = new byte[(values.length + 7) / 8];
        for (int i = 0; i < values.length; i++) {
            if (Boolean.TRUE.equals(values[i])) {
                bits[i / 8] |= (byte) (1 << (i % 8));
            }
        }
        return new HostVector(Field.of(name, ArrowType.bool(), true), values.length, 0,
                new byte[][] {validity(values), bits}, List.of());
    }

    /**
     * @param name     field name
     * @param bitWidth 8, 16, 32 or 64
     * @param signed   signedness
     * @param values   values (truncated to the width; unsigned 64-bit as bits), null for null
     * @return an integer array
     */
    public static HostVector integers(String name, int bitWidth, boolean signed, Long... values) {
        ArrowType type = ArrowType.integer(bitWidth, signed);
        ByteBuffer data = littleEndian(values.length * (bitWidth / 8));
        for (Long value : values) {
            long v = value == null ? 0 : value;
            switch (bitWidth) {
                case 8 -> data.put((byte) v);
                case 16 -> data.putShort((short) v);
                case 32 -> data.putInt((int) v);
                default -> data.putLong(v);
            }
        }
        return new HostVector(Field.of(name, type, true), values.length, 0, new byte[][] {validity(values), data.array()}, List.of());
    }

    /**
     * @param name   field name
     * @param values values, null for null
     * @return an int32 array
     */
    public static HostVector int32(String name, Integer... values) {
        return integers(name, 32, true, Arrays.stream(values).map(v -> v == null ? null : v.longValue()).toArray(Long[]::new));
    }

    /**
     * @param name   field name
     * @param values values, null for null
     * @return an int64 array
     */
    public static HostVector int64(String name, Long... values) {
        return integers(name, 64, true, values);
    }

    /**
     * @param name     field name
     * @param bitWidth 16 (half; rounded to nearest), 32 or 64
     * @param values   values, null for null
     * @return a floating-point array
     */
    public static HostVector floats(String name, int bitWidth, Double... values) {
        ByteBuffer data = littleEndian(values.length * (bitWidth / 8));
        for (Double value : values) {
            double v = value == null ? 0 : value;
            switch (bitWidth) {
                case 16 -> data.putShort(Float.floatToFloat16((float) v));
                case 32 -> data.putFloat((float) v);
                default -> data.putDouble(v);
            }
        }
        return new HostVector(Field.of(name, ArrowType.floatingPoint(bitWidth), true), values.length, 0,
                new byte[][] {validity(values), data.array()}, List.of());
    }

    /**
     * @param name   field name
     * @param values values, null for null
     * @return a float64 array
     */
    public static HostVector float64(String name, Double... values) {
        return floats(name, 64, values);
    }

    /**
     * @param name   field name
     * @param values strings, null for null
     * @return a utf8 array
     */
    public static HostVector utf8(String name, String... values) {
        byte[][] bytes = Arrays.stream(values).map(v -> v == null ? null : v.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
        return variable(Field.of(name, ArrowType.utf8(), true), bytes);
    }

    /**
     * @param name   field name
     * @param values byte strings, null for null
     * @return a binary array
     */
    public static HostVector binary(String name, byte[]... values) {
        return variable(Field.of(name, ArrowType.binary(), true), values);
    }

    private static HostVector variable(Field field, byte[][] values) {
        ByteBuffer offsets = littleEndian((values.length + 1) * 4);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        offsets.putInt(0);
        for (byte[] value : values) {
            if (value != null) {
                data.writeBytes(value);
            }
            offsets.putInt(data.size());
        }
        return new HostVector(field, values.length, 0, new byte[][] {validity(values), offsets.array(), data.toByteArray()}, List.of());
    }

    /**
     * @param name     field name
     * @param elements the concatenated elements of all lists
     * @param lengths  the length of each list, null for a null list; they sum to at most the elements' length
     * @return a list array
     */
    public static HostVector list(String name, HostVector elements, Integer... lengths) {
        ByteBuffer offsets = littleEndian((lengths.length + 1) * 4);
        int at = 0;
        offsets.putInt(0);
        for (Integer n : lengths) {
            at += n == null ? 0 : n;
            offsets.putInt(at);
        }
        if (at > elements.length) {
            throw new IllegalArgumentException("list lengths sum to " + at + " but there are " + elements.length + " elements");
        }
        return new HostVector(Field.list(name, true, elements.field), lengths.length, 0,
                new byte[][] {validity(lengths), offsets.array()}, List.of(elements));
    }

    /**
     * @param name    field name
     * @param members member arrays, all of one length
     * @return a struct array without nulls
     */
    public static HostVector struct(String name, HostVector... members) {
        return struct(name, null, members);
    }

    /**
     * @param name     field name
     * @param valid    which structs are valid (null: all)
     * @param members  member arrays, all at least as long as {@code valid}
     * @return a struct array
     */
    public static HostVector struct(String name, boolean[] valid, HostVector... members) {
        long length = valid != null ? valid.length : members.length == 0 ? 0 : members[0].length;
        for (HostVector member : members) {
            if (member.length < length) {
                throw new IllegalArgumentException("struct member " + member.field.name() + " has " + member.length + " values, need " + length);
            }
        }
        Boolean[] validity = new Boolean[(int) length];
        for (int i = 0; i < length; i++) {
            validity[i] = valid == null || valid[i] ? Boolean.TRUE : null;
        }
        List<Field> fields = Arrays.stream(members).map(m -> m.field).toList();
        return new HostVector(Field.struct(name, true, fields), length, 0, new byte[][] {validity(validity)}, List.of(members));
    }

    // ---- operations ---------------------------------------------------------------------------

    /**
     * @param offset first element of the slice
     * @param length number of elements
     * @return a view of part of this array, exported with {@code offset} set (buffers are shared)
     */
    public HostVector slice(long offset, long length) {
        Objects.checkFromIndexSize(offset, length, this.length);
        return new HostVector(field, length, this.offset + offset, buffers, children);
    }

    /** @return the field */
    public Field field() {
        return field;
    }

    /** @return the number of elements */
    public long length() {
        return length;
    }

    /** @return the number of null elements in this slice */
    public long nullCount() {
        if (field.type() instanceof ArrowType.Null) {
            return length;
        }
        byte[] validity = buffers[0];
        long nulls = 0;
        for (long i = offset; i < offset + length; i++) {
            if (validity != null && (validity[(int) (i / 8)] & (1 << (i % 8))) == 0) {
                nulls++;
            }
        }
        return nulls;
    }

    /** @return the values of this slice, in the Java mapping described above */
    public List<Object> values() {
        List<Object> out = new ArrayList<>();
        for (long i = 0; i < length; i++) {
            out.add(value(offset + i));
        }
        return out;
    }

    private Object value(long i) {
        if (field.type() instanceof ArrowType.Null || buffers[0] != null && !Values.bit(MemorySegment.ofArray(buffers[0]), i)) {
            return null;
        }
        MemorySegment data = buffers.length > 1 ? MemorySegment.ofArray(buffers[1]) : null;
        return switch (field.type()) {
            case ArrowType.Null n -> null;
            case ArrowType.Bool b -> Values.bit(data, i);
            case ArrowType.Int t -> Values.integer(t, data, i);
            case ArrowType.FloatingPoint f -> Values.floating(f, data, i);
            case ArrowType.Utf8 u -> new String(bytes(i), StandardCharsets.UTF_8);
            case ArrowType.Binary b -> ByteBuffer.wrap(bytes(i)).asReadOnlyBuffer();
            case ArrowType.ListType l -> {
                int start = Values.offset(data, i);
                yield children.getFirst().slice(start, Values.offset(data, i + 1) - start).values();
            }
            case ArrowType.Struct s -> {
                Map<String, Object> members = new LinkedHashMap<>();
                for (HostVector child : children) {
                    members.put(child.field.name(), child.value(child.offset + i));
                }
                yield members;
            }
        };
    }

    private byte[] bytes(long i) {
        MemorySegment offsets = MemorySegment.ofArray(buffers[1]);
        return Arrays.copyOfRange(buffers[2], Values.offset(offsets, i), Values.offset(offsets, i + 1));
    }

    /** @return a CPU device array holding a copy of this data, owned by the caller */
    public DeviceArray toDeviceArray() {
        return toDeviceArray(Devices.system());
    }

    /**
     * @param devices where the array will look for backends (its events and copies)
     * @return a CPU device array holding a copy of this data, owned by the caller
     */
    public DeviceArray toDeviceArray(Devices devices) {
        Arena memory = Arena.ofShared();
        ArrayData data;
        try {
            data = toNative(memory);
        } catch (RuntimeException e) {
            memory.close();
            throw e;
        }
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment array = scratch.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = scratch.allocate(ArrowSchemaLayout.LAYOUT);
            StructWriter.writeDeviceArray(array, data, DeviceTypeCodes.CPU, -1, MemorySegment.NULL, memory, memory::close);
            StructWriter.writeSchema(schema, field);
            return DeviceArray.importFrom(array, schema, devices);
        }
    }

    private ArrayData toNative(Arena memory) {
        List<MemorySegment> pointers = new ArrayList<>();
        for (byte[] buffer : buffers) {
            if (buffer == null) {
                pointers.add(MemorySegment.NULL);
            } else {
                MemorySegment segment = memory.allocate(Math.max(buffer.length, 1), 64);
                MemorySegment.copy(buffer, 0, segment, JAVA_BYTE, 0, buffer.length);
                pointers.add(segment);
            }
        }
        List<ArrayData> nested = children.stream().map(c -> c.toNative(memory)).toList();
        return new ArrayData(length, nullCount(), offset, pointers, nested);
    }

    private static ByteBuffer littleEndian(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** @return a validity bitmap, or null when nothing is null (the buffer may then be absent) */
    private static byte[] validity(Object[] values) {
        if (Arrays.stream(values).noneMatch(Objects::isNull)) {
            return null;
        }
        byte[] bits = new byte[(values.length + 7) / 8];
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                bits[i / 8] |= (byte) (1 << (i % 8));
            }
        }
        return bits;
    }
}
