package dev.quiver.host;

import dev.quiver.DeviceArray;
import dev.quiver.SyncEvent;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * Reads the values of an array of any type whose memory the host can address (CPU, pinned or managed
 * memory), in the Java mapping of {@link HostVector}. Indexes are logical: element {@code i} is at
 * {@code offset + i} of the buffers.
 *
 * <p>A reader borrows the array's memory: it is valid only while its {@link DeviceArray} is open, and reads
 * after close are undefined. It keeps no mutable state, so several threads may read through one reader.
 * Reading trusts the sizes the structs imply; validate data from a
 * producer you do not trust.
 */
public final class ArrayReader {
    private final MemorySegment array;
    private final Field field;
    private final long length;
    private final long offset;

    private ArrayReader(MemorySegment array, Field field) {
        this.array = array;
        this.field = field;
        this.length = array.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        this.offset = array.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
    }

    /**
     * Waits on the host for the array's sync event, if it has one, then returns a reader.
     *
     * @param array an open array in host-accessible memory
     * @return a reader of its values
     * @throws IllegalArgumentException if the host cannot address the array's memory
     */
    public static ArrayReader of(DeviceArray array) {
        if (!array.deviceType().isHostAccessible()) {
            throw new IllegalArgumentException(array + ": " + array.deviceType()
                    + " memory is not host accessible; copy it to the CPU first (DeviceArray.copyToHost)");
        }
        array.syncEvent().ifPresent(SyncEvent::waitOnHost);
        return new ArrayReader(array.arrowArray(), array.field());
    }

    /** @return the field */
    public Field field() {
        return field;
    }

    /** @return the number of elements */
    public long length() {
        return length;
    }

    /** @return the {@code offset} of this array into its buffers */
    public long offset() {
        return offset;
    }

    /**
     * @param i element index
     * @return true if element {@code i} is null (for unions and run-end encoded arrays: if the selected
     *         value is null)
     */
    public boolean isNull(long i) {
        Objects.checkIndex(i, length);
        ArrowType type = field.type();
        if (field.dictionary() == null) {
            if (type instanceof ArrowType.Null) {
                return true;
            }
            if (type instanceof ArrowType.Union || type instanceof ArrowType.RunEndEncoded) {
                return getObject(i) == null;
            }
        }
        MemorySegment validity = buffer(0);
        return !validity.equals(MemorySegment.NULL) && !bit(validity, offset + i);
    }

    /**
     * @param k child index
     * @return a reader of child {@code k}
     */
    public ArrayReader child(int k) {
        long n = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        Objects.checkIndex(k, n);
        MemorySegment pointers = Pointers.pointers(array.get(ADDRESS, ArrowArrayLayout.CHILDREN), n);
        return new ArrayReader(Pointers.struct(pointers.getAtIndex(ADDRESS, k), ArrowArrayLayout.LAYOUT), field.children().get(k));
    }

    /** @return a reader of the dictionary values of a dictionary-encoded array */
    public ArrayReader dictionary() {
        if (field.dictionary() == null) {
            throw new IllegalStateException(field.name() + " is not dictionary-encoded");
        }
        return new ArrayReader(Pointers.struct(array.get(ADDRESS, ArrowArrayLayout.DICTIONARY), ArrowArrayLayout.LAYOUT),
                field.dictionary().values());
    }

    /**
     * @param i element index
     * @return element {@code i} in the Java mapping of {@link HostVector}
     */
    public Object getObject(long i) {
        Objects.checkIndex(i, length);
        long at = offset + i;
        if (field.dictionary() != null) {
            if (isNull(i)) {
                return null;
            }
            return dictionary().getObject(integer((ArrowType.Int) field.type(), buffer(1), at));
        }
        ArrowType type = field.type();
        if (type instanceof ArrowType.Union union) {
            return unionValue(union, at);
        }
        if (type instanceof ArrowType.RunEndEncoded) {
            return runValue(at);
        }
        if (isNull(i)) {
            return null;
        }
        MemorySegment data = field.type() instanceof ArrowType.Null ? null : buffer(Math.min(1, BufferLayout.of(type).bufferCount() - 1));
        return switch (type) {
            case ArrowType.Null t -> null;
            case ArrowType.Bool t -> bit(data, at);
            case ArrowType.Int t -> integer(t, data, at);
            case ArrowType.FloatingPoint t -> switch (t.bitWidth()) {
                case 16 -> (double) Float.float16ToFloat(data.get(JAVA_SHORT_UNALIGNED, at * 2));
                case 32 -> (double) data.get(JAVA_FLOAT_UNALIGNED, at * 4);
                default -> data.get(JAVA_DOUBLE_UNALIGNED, at * 8);
            };
            case ArrowType.Decimal t -> decimal(t, data, at);
            case ArrowType.FixedSizeBinary t -> readOnly(data.asSlice(at * t.byteWidth(), t.byteWidth()).toArray(JAVA_BYTE));
            case ArrowType.Binary t -> readOnly(variable(at, 32));
            case ArrowType.LargeBinary t -> readOnly(variable(at, 64));
            case ArrowType.Utf8 t -> new String(variable(at, 32), StandardCharsets.UTF_8);
            case ArrowType.LargeUtf8 t -> new String(variable(at, 64), StandardCharsets.UTF_8);
            case ArrowType.BinaryView t -> readOnly(view(at));
            case ArrowType.Utf8View t -> new String(view(at), StandardCharsets.UTF_8);
            case ArrowType.Date t -> t.unit() == ArrowType.DateUnit.DAY ? (long) data.get(JAVA_INT_UNALIGNED, at * 4) : data.get(JAVA_LONG_UNALIGNED, at * 8);
            case ArrowType.Time t -> t.bitWidth() == 32 ? (long) data.get(JAVA_INT_UNALIGNED, at * 4) : data.get(JAVA_LONG_UNALIGNED, at * 8);
            case ArrowType.Timestamp t -> data.get(JAVA_LONG_UNALIGNED, at * 8);
            case ArrowType.Duration t -> data.get(JAVA_LONG_UNALIGNED, at * 8);
            case ArrowType.Interval t -> switch (t.unit()) {
                case YEAR_MONTH -> (long) data.get(JAVA_INT_UNALIGNED, at * 4);
                case DAY_TIME -> new IntervalDayTime(data.get(JAVA_INT_UNALIGNED, at * 8), data.get(JAVA_INT_UNALIGNED, at * 8 + 4));
                case MONTH_DAY_NANO -> new IntervalMonthDayNano(data.get(JAVA_INT_UNALIGNED, at * 16),
                        data.get(JAVA_INT_UNALIGNED, at * 16 + 4), data.get(JAVA_LONG_UNALIGNED, at * 16 + 8));
            };
            case ArrowType.ListType t -> elements(offsetAt(data, at, 32), offsetAt(data, at + 1, 32));
            case ArrowType.LargeList t -> elements(offsetAt(data, at, 64), offsetAt(data, at + 1, 64));
            case ArrowType.FixedSizeList t -> elements(at * t.listSize(), (at + 1) * t.listSize());
            case ArrowType.ListView t -> elements(offsetAt(data, at, 32), offsetAt(data, at, 32) + offsetAt(buffer(2), at, 32));
            case ArrowType.LargeListView t -> elements(offsetAt(data, at, 64), offsetAt(data, at, 64) + offsetAt(buffer(2), at, 64));
            case ArrowType.MapType t -> entries(offsetAt(data, at, 32), offsetAt(data, at + 1, 32));
            case ArrowType.Struct t -> {
                Map<String, Object> members = new LinkedHashMap<>();
                for (int k = 0; k < field.children().size(); k++) {
                    members.put(field.children().get(k).name(), child(k).getObject(at));
                }
                yield members;
            }
            case ArrowType.Union t -> throw new AssertionError("handled above");
            case ArrowType.RunEndEncoded t -> throw new AssertionError("handled above");
        };
    }

    /**
     * @param i element index of an integer, date, time, timestamp, duration or year-month interval array
     * @return its value (unsigned widths zero-extended, uint64 as its bits)
     * @throws IllegalStateException if the element is null or not integral
     */
    public long getLong(long i) {
        return typed(i, Long.class);
    }

    /**
     * @param i element index of a floating-point array
     * @return its value, widened to double
     */
    public double getDouble(long i) {
        return typed(i, Double.class);
    }

    /**
     * @param i element index of a boolean array
     * @return its value
     */
    public boolean getBoolean(long i) {
        return typed(i, Boolean.class);
    }

    /**
     * @param i element index of a utf8, large utf8 or utf8 view array
     * @return its value
     */
    public String getString(long i) {
        return typed(i, String.class);
    }

    /**
     * @param i element index of a binary array of any layout
     * @return a copy of its bytes
     */
    public byte[] getBytes(long i) {
        ByteBuffer buffer = typed(i, ByteBuffer.class);
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    private <T> T typed(long i, Class<T> kind) {
        Object value = getObject(i);
        if (!kind.isInstance(value)) {
            throw new IllegalStateException(field.name() + "[" + i + "] is " + (value == null ? "null"
                    : "a " + value.getClass().getSimpleName() + " (" + field.type().format() + ")") + ", not a " + kind.getSimpleName());
        }
        return kind.cast(value);
    }

    /** @return every element, in the Java mapping of {@link HostVector} */
    public List<Object> values() {
        List<Object> out = new ArrayList<>();
        for (long i = 0; i < length; i++) {
            out.add(getObject(i));
        }
        return out;
    }

    private Object unionValue(ArrowType.Union union, long at) {
        int typeId = buffer(0).get(JAVA_BYTE, at);
        int k = union.typeIds().indexOf(typeId);
        if (k < 0) {
            throw new IllegalStateException(field.name() + ": slot " + at + " has undeclared type id " + typeId);
        }
        long childIndex = union.mode() == ArrowType.UnionMode.DENSE ? buffer(1).get(JAVA_INT_UNALIGNED, at * 4) : at;
        return new UnionValue(typeId, child(k).getObject(childIndex));
    }

    private Object runValue(long at) {
        ArrayReader runEnds = child(0);
        long low = 0;
        long high = runEnds.length - 1;
        while (low < high) {
            long mid = (low + high) >>> 1;
            if (((Number) runEnds.getObject(mid)).longValue() > at) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return child(1).getObject(low);
    }

    private List<Object> elements(long start, long end) {
        ArrayReader elements = child(0);
        List<Object> out = new ArrayList<>();
        for (long j = start; j < end; j++) {
            out.add(elements.getObject(j));
        }
        return out;
    }

    private List<Object> entries(long start, long end) {
        ArrayReader entries = child(0);
        ArrayReader keys = entries.child(0);
        ArrayReader items = entries.child(1);
        List<Object> out = new ArrayList<>();
        for (long j = start; j < end; j++) {
            out.add(new AbstractMap.SimpleImmutableEntry<>(keys.getObject(entries.offset + j), items.getObject(entries.offset + j)));
        }
        return out;
    }

    private byte[] variable(long at, int bits) {
        MemorySegment offsets = buffer(1);
        long start = offsetAt(offsets, at, bits);
        long end = offsetAt(offsets, at + 1, bits);
        if (start < 0 || end < start) {
            throw new IllegalStateException(field.name() + ": offsets[" + at + "] = " + start + ".." + end + " are not ascending");
        }
        if (end == start) {
            return new byte[0];
        }
        MemorySegment data = pointer(2);
        if (data.equals(MemorySegment.NULL)) {
            throw new IllegalStateException(field.name() + ": data buffer is NULL but value " + at + " has " + (end - start) + " bytes");
        }
        return Pointers.bytes(data, end).asSlice(start, end - start).toArray(JAVA_BYTE);
    }

    private byte[] view(long at) {
        MemorySegment view = buffer(1).asSlice(at * 16, 16);
        int size = view.get(JAVA_INT_UNALIGNED, 0);
        if (size <= 12) {
            return view.asSlice(4, size).toArray(JAVA_BYTE);
        }
        int index = view.get(JAVA_INT_UNALIGNED, 8);
        int start = view.get(JAVA_INT_UNALIGNED, 12);
        return Pointers.bytes(pointer(2 + index), start + (long) size).asSlice(start, size).toArray(JAVA_BYTE);
    }

    private static long offsetAt(MemorySegment offsets, long index, int bits) {
        return bits == 32 ? offsets.get(JAVA_INT_UNALIGNED, index * 4) : offsets.get(JAVA_LONG_UNALIGNED, index * 8);
    }

    private static long integer(ArrowType.Int type, MemorySegment data, long at) {
        return switch (type.bitWidth()) {
            case 8 -> type.signed() ? data.get(JAVA_BYTE, at) : Byte.toUnsignedLong(data.get(JAVA_BYTE, at));
            case 16 -> type.signed() ? data.get(JAVA_SHORT_UNALIGNED, at * 2) : Short.toUnsignedLong(data.get(JAVA_SHORT_UNALIGNED, at * 2));
            case 32 -> type.signed() ? data.get(JAVA_INT_UNALIGNED, at * 4) : Integer.toUnsignedLong(data.get(JAVA_INT_UNALIGNED, at * 4));
            default -> data.get(JAVA_LONG_UNALIGNED, at * 8);
        };
    }

    private static BigDecimal decimal(ArrowType.Decimal type, MemorySegment data, long at) {
        int width = type.bitWidth() / 8;
        byte[] littleEndian = data.asSlice(at * width, width).toArray(JAVA_BYTE);
        byte[] bigEndian = new byte[width];
        for (int i = 0; i < width; i++) {
            bigEndian[i] = littleEndian[width - 1 - i];
        }
        return new BigDecimal(new BigInteger(bigEndian), type.scale());
    }

    private static boolean bit(MemorySegment bits, long index) {
        return (bits.get(JAVA_BYTE, index >>> 3) & (1 << (index & 7))) != 0;
    }

    private static ByteBuffer readOnly(byte[] bytes) {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    private MemorySegment pointer(int i) {
        long n = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        return Pointers.pointers(array.get(ADDRESS, ArrowArrayLayout.BUFFERS), n).getAtIndex(ADDRESS, i);
    }

    /** Buffer {@code i}, sized from the layout for {@code offset + length} slots (DATA buffers are sized per read). */
    private MemorySegment buffer(int i) {
        MemorySegment pointer = pointer(i);
        if (pointer.equals(MemorySegment.NULL)) {
            return pointer;
        }
        BufferLayout layout = BufferLayout.of(field.type());
        long bytes = i < layout.bufferCount() ? layout.buffers().get(i).bytesFor(offset + length) : Long.MAX_VALUE;
        return Pointers.bytes(pointer, bytes == 0 ? Long.MAX_VALUE : bytes);
    }
}
