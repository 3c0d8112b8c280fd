package dev.quiver.host;

import dev.quiver.DeviceArray;
import dev.quiver.SyncEvent;
import dev.quiver.bridge.ArrayAccess;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * Reads the values of an array of any type whose memory the host can address (CPU, pinned or managed
 * memory): boxed in the Java mapping of {@link HostVector} ({@link #getObject}, {@link #values}), unboxed
 * ({@link #getLong}, {@link #getInt}, {@link #getDouble}, ...) and in bulk into primitive arrays
 * ({@link #copyLongs}, {@link #copyInts}, ...).
 *
 * <p><b>Indexes are logical</b>: element 0 is the first element of the array as sliced, wherever its
 * buffers start. Children of structs and of sparse unions are read through readers that already apply the
 * parent's offset ({@link #child(int)}), so {@code reader.child(k).getLong(i)} is member {@code k} of row
 * {@code i} even when the struct is a slice. Readers of the children of lists, maps, dense unions and run-end
 * encoded arrays, and of dictionaries, read those arrays whole, as the parent's offsets and indexes address
 * them.
 *
 * <p><b>Misuse</b> fails with a message that names the array: an index outside {@code 0 .. length - 1}
 * throws {@link IndexOutOfBoundsException}; a typed getter called on a null element, or on an array whose
 * type it does not read, throws {@link IllegalStateException}. Typed getters read through dictionaries and
 * run-end encoding to the decoded value; bulk getters read stored values only.
 *
 * <p><b>Ownership and threads.</b> A reader borrows the array's memory: it is valid only while its
 * {@link DeviceArray} is open, and reads after close are undefined. It keeps no mutable state, so several
 * threads may read through one reader. Contents are validated once before the first reader reads
 * them (see {@link #of}).
 */
public final class ArrayReader {
    private final ArrayMemory memory;
    private final Field field;
    private final ValueKind kind;
    private final long offset;
    private final long length;
    private final MemorySegment validity;
    private final MemorySegment data;

    ArrayReader(ArrayMemory memory, Field field, long offset, long length) {
        this.memory = memory;
        this.field = field;
        this.kind = ValueKind.of(field);
        this.offset = offset;
        this.length = length;
        List<BufferLayout.Buffer> layout = BufferLayout.of(field.type()).buffers();
        long slots = offset + length;
        boolean hasValidity = !layout.isEmpty() && layout.getFirst().kind() == BufferLayout.Kind.VALIDITY;
        this.validity = hasValidity && memory.bufferCount() > 0 ? memory.buffer(0, layout.getFirst().bytesFor(slots)) : MemorySegment.NULL;
        int dataIndex = hasValidity ? 1 : 0;
        this.data = layout.size() > dataIndex && memory.bufferCount() > dataIndex
                ? memory.buffer(dataIndex, layout.get(dataIndex).bytesFor(slots)) : MemorySegment.NULL;
    }

    /**
     * Waits on the host for the array's sync event, if it has one, then returns a reader.
     *
     * <p>The first reader of an array whose contents Quiver did not write itself from Java values (an
     * imported array, a built one, a copy or view of either) validates them in full first
     * ({@link dev.quiver.Interchange#validateFull(DeviceArray)}), once per array, so that invalid data fails here with the field
     * path instead of being read as wrong values.
     *
     * @param array an open array in host-accessible memory; the reader borrows it
     * @return a reader of its values
     * @throws IllegalArgumentException if the host cannot address the array's memory
     * @throws dev.quiver.InvalidArrowException if the array's contents break the format
     */
    public static ArrayReader of(DeviceArray array) {
        return of(array, dev.quiver.ProducerTrust.UNTRUSTED);
    }

    /**
     * Waits on the host for the array's sync event, if it has one, then returns a reader, validating the
     * array's contents first or not as {@code contents} says.
     *
     * <p>With {@link dev.quiver.ProducerTrust#UNTRUSTED}, as {@link #of(DeviceArray)}: contents Quiver did not
     * write itself are validated in full before the first reader reads them, once per array. With
     * {@link dev.quiver.ProducerTrust#TRUSTED} the caller vouches for the producer (an engine that validated its
     * output, a pipeline's own kernels) and nothing is validated: reading 1M int64 then costs nothing up front,
     * but offsets or indices that break the format are read as they are, and an offset past its buffer may read
     * memory the array does not own (or crash the JVM). Arrays already validated are never validated again,
     * whichever is asked.
     *
     * @param array    an open array in host-accessible memory; the reader borrows it
     * @param contents whether the array's contents are validated before they are read
     * @return a reader of its values
     * @throws IllegalArgumentException if the host cannot address the array's memory
     * @throws dev.quiver.InvalidArrowException if the contents are validated and break the format
     */
    public static ArrayReader of(DeviceArray array, dev.quiver.ProducerTrust contents) {
        Objects.requireNonNull(contents, "contents");
        if (!array.deviceType().isHostAccessible()) {
            throw new IllegalArgumentException(array + ": " + array.deviceType()
                    + " memory is not host accessible; copy it to the CPU first (DeviceArray.copyToHost)");
        }
        array.syncEvent().ifPresent(SyncEvent::waitOnHost);
        if (contents == dev.quiver.ProducerTrust.UNTRUSTED) {
            ArrayAccess.verifyForReading(array);
        }
        ArrayMemory memory = new ArrowArrayMemory(dev.quiver.Interchange.arrowArray(array));
        return new ArrayReader(memory, array.field(), memory.offset(), memory.length());
    }

    /** {@return the field} */
    public Field field() {
        return field;
    }

    /** {@return the number of elements} */
    public long length() {
        return length;
    }

    /**
     * {@return the slot of element 0 in this array's buffers: the array's {@code offset}, plus the parent's
     * for a child of a struct or of a sparse union}
     */
    public long offset() {
        return offset;
    }

    /**
     * {@return true if element {@code i} is null (for unions and run-end encoded arrays: if the selected
     * value is null)}
     * @param i element index
     * @throws IndexOutOfBoundsException if {@code i} is not an element index
     */
    public boolean isNull(long i) {
        checkIndex(i);
        return switch (kind.kind()) {
            case NULL -> true;
            case UNION -> {
                long[] slot = unionSlot((ArrowType.Union) field.type(), i);
                yield child((int) slot[0]).isNull(slot[1]);
            }
            case RUN_END_ENCODED -> child(1).isNull(runIndex(offset + i));
            default -> !validity.equals(MemorySegment.NULL) && !Bitmaps.bit(validity, offset + i);
        };
    }

    /**
     * {@return a reader of child {@code k}; for structs and sparse unions it applies this array's offset, so
     * that its element {@code i} belongs to element {@code i} of this array}
     * @param k child index
     * @throws IndexOutOfBoundsException if the array has no child {@code k}
     */
    public ArrayReader child(int k) {
        if (k < 0 || k >= memory.childCount() || k >= field.children().size()) {
            throw new IndexOutOfBoundsException(field.name() + " has " + memory.childCount() + " children, not a child " + k);
        }
        ArrayMemory child = memory.child(k);
        Field childField = field.children().get(k);
        boolean parallel = field.dictionary() == null && (field.type() instanceof ArrowType.Struct
                || field.type() instanceof ArrowType.Union u && u.mode() == ArrowType.UnionMode.SPARSE);
        return parallel ? new ArrayReader(child, childField, child.offset() + offset, length)
                : new ArrayReader(child, childField, child.offset(), child.length());
    }

    /**
     * {@return a reader of the dictionary values of a dictionary-encoded array}
     * @throws IllegalStateException if the array is not dictionary-encoded
     */
    public ArrayReader dictionary() {
        ArrayMemory dictionary = memory.dictionary();
        if (field.dictionary() == null || dictionary == null) {
            throw new IllegalStateException(field.name() + " is not dictionary-encoded");
        }
        return new ArrayReader(dictionary, field.dictionary().values(), dictionary.offset(), dictionary.length());
    }

    /**
     * {@return element {@code i} in the Java mapping of {@link HostVector}}
     * @param i element index
     * @throws IndexOutOfBoundsException if {@code i} is not an element index
     */
    public Object getObject(long i) {
        checkIndex(i);
        long at = offset + i;
        switch (kind.kind()) {
            case DICTIONARY -> {
                return isNull(i) ? null : dictionary().getObject(indexAt(at));
            }
            case UNION -> {
                return unionValue((ArrowType.Union) field.type(), i);
            }
            case RUN_END_ENCODED -> {
                return child(1).getObject(runIndex(at));
            }
            default -> {
                if (isNull(i)) {
                    return null;
                }
            }
        }
        return switch (field.type()) {
            case ArrowType.Null t -> null;
            case ArrowType.Bool t -> Bitmaps.bit(data, at);
            case ArrowType.Int t -> integer(at);
            case ArrowType.FloatingPoint t -> floating(at);
            case ArrowType.Decimal t -> Decimals.read(t, data, at);
            case ArrowType.FixedSizeBinary t -> readOnly(bytesAt(at));
            case ArrowType.Binary t -> readOnly(bytesAt(at));
            case ArrowType.LargeBinary t -> readOnly(bytesAt(at));
            case ArrowType.BinaryView t -> readOnly(bytesAt(at));
            case ArrowType.Utf8 t -> new String(bytesAt(at), StandardCharsets.UTF_8);
            case ArrowType.LargeUtf8 t -> new String(bytesAt(at), StandardCharsets.UTF_8);
            case ArrowType.Utf8View t -> new String(bytesAt(at), StandardCharsets.UTF_8);
            case ArrowType.Date t -> integer(at);
            case ArrowType.Time t -> integer(at);
            case ArrowType.Timestamp t -> integer(at);
            case ArrowType.Duration t -> integer(at);
            case ArrowType.Interval t -> switch (t.unit()) {
                case YEAR_MONTH -> integer(at);
                case DAY_TIME -> new IntervalDayTime(data.get(JAVA_INT_UNALIGNED, at * 8), data.get(JAVA_INT_UNALIGNED, at * 8 + 4));
                case MONTH_DAY_NANO -> new IntervalMonthDayNano(data.get(JAVA_INT_UNALIGNED, at * 16),
                        data.get(JAVA_INT_UNALIGNED, at * 16 + 4), data.get(JAVA_LONG_UNALIGNED, at * 16 + 8));
            };
            case ArrowType.ListType t -> elements(offsetAt(data, at, 32), offsetAt(data, at + 1, 32));
            case ArrowType.LargeList t -> elements(offsetAt(data, at, 64), offsetAt(data, at + 1, 64));
            case ArrowType.FixedSizeList t -> elements(at * t.listSize(), (at + 1) * t.listSize());
            case ArrowType.ListView t -> elements(offsetAt(data, at, 32), offsetAt(data, at, 32) + offsetAt(sizes(32), at, 32));
            case ArrowType.LargeListView t -> elements(offsetAt(data, at, 64), offsetAt(data, at, 64) + offsetAt(sizes(64), at, 64));
            case ArrowType.MapType t -> entries(offsetAt(data, at, 32), offsetAt(data, at + 1, 32));
            case ArrowType.Struct t -> {
                Map<String, Object> members = new LinkedHashMap<>();
                for (int k = 0; k < field.children().size(); k++) {
                    members.put(field.children().get(k).name(), child(k).getObject(i));
                }
                yield members;
            }
            case ArrowType.Union t -> throw new AssertionError("handled above");
            case ArrowType.RunEndEncoded t -> throw new AssertionError("handled above");
        };
    }

    /**
     * Boxes every element into a list. The list's heap grows with the length, which a producer chooses (a
     * null array of any length needs no memory at all), so this refuses, before it allocates anything, when
     * the list would need more than half of the Java heap that is free; {@link #stream()}, the typed getters
     * and the bulk copies read any length.
     *
     * @return every element, in the Java mapping of {@link HostVector}
     * @throws IllegalStateException if the boxed elements would not fit in half of the free heap
     */
    public List<Object> values() {
        long perElement = BOXED_BYTES * (1L + descendants(field));
        Runtime runtime = Runtime.getRuntime();
        long free = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
        if (length > Integer.MAX_VALUE - 8 || length > free / 2 / perElement) {
            throw new IllegalStateException(field.name() + " has " + length + " elements; boxing them all needs about "
                    + (length > Long.MAX_VALUE / perElement ? "more than " + Long.MAX_VALUE : Math.multiplyExact(length, perElement))
                    + " bytes of Java heap, more than half of the " + free + " bytes free: read them with stream(), the typed getters or the bulk copies");
        }
        List<Object> out = new ArrayList<>((int) length);
        for (long i = 0; i < length; i++) {
            out.add(getObject(i));
        }
        return out;
    }

    /**
     * {@return every element in order, in the Java mapping of {@link HostVector}, boxed one at a time as the
     * stream is consumed (sequential; valid while the array is open)}
     */
    public Stream<Object> stream() {
        return LongStream.range(0, length).mapToObj(this::getObject);
    }

    /** Heap bytes one boxed value takes at the least: its reference and a small object. */
    private static final long BOXED_BYTES = 24;

    private static long descendants(Field f) {
        long n = f.children().size();
        for (Field child : f.children()) {
            n += descendants(child);
        }
        return n;
    }

    // ---- unboxed getters ---------------------------------------------------------------------------

    /**
     * {@return its value}
     * @param i element index of a boolean array
     * @throws IllegalStateException if the element is null or the array is not boolean
     */
    public boolean getBoolean(long i) {
        ArrayReader owner = valueOwner(i);
        if (owner != this) {
            return owner.getBoolean(decodedIndex(i));
        }
        long at = valueAt(i, kind.kind() == ValueKind.Kind.BOOLEAN, "getBoolean", "boolean arrays");
        return Bitmaps.bit(data, at);
    }

    /**
     * {@return its value (uint8 as its bits)}
     * @param i element index of an 8-bit integer array
     * @throws IllegalStateException if the element is null or the array is not an 8-bit integer array
     */
    public byte getByte(long i) {
        ArrayReader owner = valueOwner(i);
        if (owner != this) {
            return owner.getByte(decodedIndex(i));
        }
        return (byte) integer(valueAt(i, kind.isIntegerOfAtMost(8), "getByte", "8-bit integer arrays"));
    }

    /**
     * {@return its value (uint16 as its bits; float16 as its IEEE 754 half-precision bits)}
     * @param i element index of an integer array of 16 bits or fewer, or of a float16 array
     * @throws IllegalStateException if the element is null or the array is not of such a type
     */
    public short getShort(long i) {
        ArrayReader owner = valueOwner(i);
        if (owner != this) {
            return owner.getShort(decodedIndex(i));
        }
        long at = valueAt(i, kind.isIntegerOfAtMost(16) || kind.isStoredAs(16, true), "getShort",
                "integer arrays of 16 bits or fewer and float16 arrays");
        return kind.kind() == ValueKind.Kind.FLOAT ? data.get(JAVA_SHORT_UNALIGNED, at * 2) : (short) integer(at);
    }

    /**
     * {@return its value (uint32 as its bits)}
     * @param i element index of an integer array of 32 bits or fewer, a date32, time32 or year-month
     *          interval array
     * @throws IllegalStateException if the element is null or the array is not of such a type
     */
    public int getInt(long i) {
        ArrayReader owner = valueOwner(i);
        if (owner != this) {
            return owner.getInt(decodedIndex(i));
        }
        return (int) integer(valueAt(i, kind.isIntegerOfAtMost(32), "getInt",
                "integer arrays of 32 bits or fewer, date32, time32 and year-month interval arrays"));
    }

    /**
     * {@return its value (unsigned widths zero-extended, uint64 as its bits)}
     * @param i element index of an integer, date, time, timestamp, duration or year-month interval array
     * @throws IllegalStateException if the element is null or the array is not of such a type
     */
    public long getLong(long i) {
        ArrayReader owner = valueOwner(i);
        if (owner != this) {
            return owner.getLong(decodedIndex(i));
        }
        return integer(valueAt(i, kind.isIntegerOfAtMost(64), "getLong",
                "integer, date, time, timestamp, duration and year-month interval arrays"));
    }

    /**
     * {@return its value, widened to float}
     * @param i element index of a float16 or float32 array
     * @throws IllegalStateException if the element is null or the array is not of such a type
     */
    public float getFloat(long i) {
        ArrayReader owner = valueOwner(i);
        if (owner != this) {
            return owner.getFloat(decodedIndex(i));
        }
        return (float) floating(valueAt(i, kind.kind() == ValueKind.Kind.FLOAT && kind.bitWidth() <= 32, "getFloat",
                "float16 and float32 arrays"));
    }

    /**
     * {@return its value, widened to double}
     * @param i element index of a floating-point array
     * @throws IllegalStateException if the element is null or the array is not floating point
     */
    public double getDouble(long i) {
        ArrayReader owner = valueOwner(i);
        if (owner != this) {
            return owner.getDouble(decodedIndex(i));
        }
        return floating(valueAt(i, kind.kind() == ValueKind.Kind.FLOAT, "getDouble", "floating-point arrays"));
    }

    /**
     * {@return its value, with the type's scale}
     * @param i element index of a decimal array
     * @throws IllegalStateException if the element is null or the array is not decimal
     */
    public BigDecimal getDecimal(long i) {
        ArrayReader owner = valueOwner(i);
        if (owner != this) {
            return owner.getDecimal(decodedIndex(i));
        }
        long at = valueAt(i, kind.kind() == ValueKind.Kind.DECIMAL, "getDecimal", "decimal arrays");
        return Decimals.read((ArrowType.Decimal) field.type(), data, at);
    }

    /**
     * {@return its value}
     * @param i element index of a utf8, large utf8 or utf8 view array
     * @throws IllegalStateException if the element is null or the array is not utf8
     */
    public String getString(long i) {
        ArrayReader owner = valueOwner(i);
        if (owner != this) {
            return owner.getString(decodedIndex(i));
        }
        long at = valueAt(i, kind.utf8(), "getString", "utf8, large utf8 and utf8 view arrays");
        return new String(bytesAt(at), StandardCharsets.UTF_8);
    }

    /**
     * {@return a copy of its bytes (for utf8, the UTF-8 encoding)}
     * @param i element index of a binary or utf8 array of any layout (offsets, large offsets, views), or of
     *          a fixed-size binary array
     * @throws IllegalStateException if the element is null or the array is not of such a type
     */
    public byte[] getBytes(long i) {
        ArrayReader owner = valueOwner(i);
        if (owner != this) {
            return owner.getBytes(decodedIndex(i));
        }
        ValueKind.Kind k = kind.kind();
        long at = valueAt(i, k == ValueKind.Kind.FIXED_BINARY || k == ValueKind.Kind.OFFSET_BINARY || k == ValueKind.Kind.VIEW_BINARY,
                "getBytes", "binary, utf8 (any layout) and fixed-size binary arrays");
        return bytesAt(at);
    }

    // ---- bulk getters ------------------------------------------------------------------------------

    /**
     * Copies stored values of a 64-bit array (int64, uint64, date64, time64, timestamp, duration), one bulk
     * copy. Slots of null elements hold whatever the producer stored; see {@link #copyValidity}.
     *
     * @param from  first element index
     * @param dst   where to write
     * @param at    first index of {@code dst} to write
     * @param count number of elements
     * @throws IndexOutOfBoundsException if the elements or the destination range do not exist
     * @throws IllegalStateException     if the array is not stored as 64-bit integers
     */
    public void copyLongs(long from, long[] dst, int at, int count) {
        checkBulk("copyLongs", kind.isStoredAs(64, false), "64-bit integer, date64, time64, timestamp and duration arrays",
                from, count, at, dst.length);
        MemorySegment.copy(data, LittleEndian.LONG, (offset + from) * 8, dst, at, count);
    }

    /**
     * Copies stored values of a 32-bit array (int32, uint32, date32, time32, year-month interval), one bulk
     * copy. Slots of null elements hold whatever the producer stored.
     *
     * @param from  first element index
     * @param dst   where to write
     * @param at    first index of {@code dst} to write
     * @param count number of elements
     * @throws IndexOutOfBoundsException if the elements or the destination range do not exist
     * @throws IllegalStateException     if the array is not stored as 32-bit integers
     */
    public void copyInts(long from, int[] dst, int at, int count) {
        checkBulk("copyInts", kind.isStoredAs(32, false), "32-bit integer, date32, time32 and year-month interval arrays",
                from, count, at, dst.length);
        MemorySegment.copy(data, LittleEndian.INT, (offset + from) * 4, dst, at, count);
    }

    /**
     * Copies stored values of a 16-bit array (int16, uint16, float16 as its bits), one bulk copy. Slots of
     * null elements hold whatever the producer stored.
     *
     * @param from  first element index
     * @param dst   where to write
     * @param at    first index of {@code dst} to write
     * @param count number of elements
     * @throws IndexOutOfBoundsException if the elements or the destination range do not exist
     * @throws IllegalStateException     if the array is not stored as 16-bit values
     */
    public void copyShorts(long from, short[] dst, int at, int count) {
        checkBulk("copyShorts", kind.isStoredAs(16, true), "16-bit integer and float16 arrays", from, count, at, dst.length);
        MemorySegment.copy(data, LittleEndian.SHORT, (offset + from) * 2, dst, at, count);
    }

    /**
     * Copies stored values of an 8-bit integer array (int8, uint8), one bulk copy. Slots of null elements
     * hold whatever the producer stored.
     *
     * @param from  first element index
     * @param dst   where to write
     * @param at    first index of {@code dst} to write
     * @param count number of elements
     * @throws IndexOutOfBoundsException if the elements or the destination range do not exist
     * @throws IllegalStateException     if the array is not an 8-bit integer array
     */
    public void copyBytes(long from, byte[] dst, int at, int count) {
        checkBulk("copyBytes", kind.isStoredAs(8, false), "8-bit integer arrays", from, count, at, dst.length);
        MemorySegment.copy(data, JAVA_BYTE, offset + from, dst, at, count);
    }

    /**
     * Copies stored values of a float64 array, one bulk copy. Slots of null elements hold whatever the
     * producer stored.
     *
     * @param from  first element index
     * @param dst   where to write
     * @param at    first index of {@code dst} to write
     * @param count number of elements
     * @throws IndexOutOfBoundsException if the elements or the destination range do not exist
     * @throws IllegalStateException     if the array is not float64
     */
    public void copyDoubles(long from, double[] dst, int at, int count) {
        checkBulk("copyDoubles", kind.kind() == ValueKind.Kind.FLOAT && kind.bitWidth() == 64, "float64 arrays",
                from, count, at, dst.length);
        MemorySegment.copy(data, LittleEndian.DOUBLE, (offset + from) * 8, dst, at, count);
    }

    /**
     * Copies stored values of a float32 array, one bulk copy. Slots of null elements hold whatever the
     * producer stored.
     *
     * @param from  first element index
     * @param dst   where to write
     * @param at    first index of {@code dst} to write
     * @param count number of elements
     * @throws IndexOutOfBoundsException if the elements or the destination range do not exist
     * @throws IllegalStateException     if the array is not float32
     */
    public void copyFloats(long from, float[] dst, int at, int count) {
        checkBulk("copyFloats", kind.kind() == ValueKind.Kind.FLOAT && kind.bitWidth() == 32, "float32 arrays",
                from, count, at, dst.length);
        MemorySegment.copy(data, LittleEndian.FLOAT, (offset + from) * 4, dst, at, count);
    }

    /**
     * Unpacks stored values of a boolean array. Slots of null elements hold whatever the producer stored.
     *
     * @param from  first element index
     * @param dst   where to write
     * @param at    first index of {@code dst} to write
     * @param count number of elements
     * @throws IndexOutOfBoundsException if the elements or the destination range do not exist
     * @throws IllegalStateException     if the array is not boolean
     */
    public void copyBooleans(long from, boolean[] dst, int at, int count) {
        checkBulk("copyBooleans", kind.kind() == ValueKind.Kind.BOOLEAN, "boolean arrays", from, count, at, dst.length);
        for (int j = 0; j < count; j++) {
            dst[at + j] = Bitmaps.bit(data, offset + from + j);
        }
    }

    /**
     * Writes {@code true} for each valid element and {@code false} for each null one, from the validity
     * bitmap; every element is valid where the array has none.
     *
     * @param from  first element index
     * @param dst   where to write
     * @param at    first index of {@code dst} to write
     * @param count number of elements
     * @throws IndexOutOfBoundsException if the elements or the destination range do not exist
     * @throws IllegalStateException     if the type has no validity bitmap (null, unions, run-end encoded)
     */
    public void copyValidity(long from, boolean[] dst, int at, int count) {
        ValueKind.Kind k = kind.kind();
        checkBulk("copyValidity", k != ValueKind.Kind.NULL && k != ValueKind.Kind.UNION && k != ValueKind.Kind.RUN_END_ENCODED,
                "arrays with a validity bitmap", from, count, at, dst.length);
        if (validity.equals(MemorySegment.NULL)) {
            java.util.Arrays.fill(dst, at, at + count, true);
            return;
        }
        long bit = offset + from;
        int j = 0;
        for (; j < count && (bit & 7) != 0; j++, bit++) {
            dst[at + j] = Bitmaps.bit(validity, bit);
        }
        // whole bytes of the bitmap, eight elements at a time
        for (; count - j >= 8; j += 8, bit += 8) {
            int bits = validity.get(ValueLayout.JAVA_BYTE, bit >>> 3);
            for (int b = 0; b < 8; b++) {
                dst[at + j + b] = (bits >>> b & 1) != 0;
            }
        }
        for (; j < count; j++, bit++) {
            dst[at + j] = Bitmaps.bit(validity, bit);
        }
    }

    // ---- internals ---------------------------------------------------------------------------------

    private void checkIndex(long i) {
        if (i < 0 || i >= length) {
            throw new IndexOutOfBoundsException(field.name() + ": index " + i + " is out of range for " + length + " elements");
        }
    }

    /** Checks the index, the type and that the element is not null; returns its slot. */
    private long valueAt(long i, boolean typeFits, String getter, String reads) {
        checkIndex(i);
        if (!typeFits) {
            throw wrongType(getter, reads);
        }
        if (isNull(i)) {
            throw new IllegalStateException(field.name() + "[" + i + "] is null; " + getter + " reads valid elements only (see isNull)");
        }
        return offset + i;
    }

    private void checkBulk(String getter, boolean typeFits, String reads, long from, long count, int at, int dstLength) {
        if (!typeFits) {
            throw wrongType(getter, reads);
        }
        if (count < 0 || from < 0 || from > length - count) {
            throw new IndexOutOfBoundsException(field.name() + ": " + getter + " of " + count + " elements from " + from
                    + " is out of range for " + length + " elements");
        }
        if (at < 0 || at > dstLength - count) {
            throw new IndexOutOfBoundsException(field.name() + ": " + getter + " of " + count + " elements to index " + at
                    + " does not fit a destination of " + dstLength);
        }
    }

    private IllegalStateException wrongType(String getter, String reads) {
        return new IllegalStateException(field.name() + " is " + describe() + "; " + getter + " reads " + reads);
    }

    private String describe() {
        return field.dictionary() != null ? "dictionary-encoded (format " + field.type().format() + ")"
                : "a " + field.type().getClass().getSimpleName() + " array (format " + field.type().format() + ")";
    }

    /** @return the reader that holds element {@code i}'s decoded value: this one, a dictionary or run values */
    private ArrayReader valueOwner(long i) {
        return switch (kind.kind()) {
            case DICTIONARY -> {
                checkIndex(i);
                if (isNull(i)) {
                    throw new IllegalStateException(field.name() + "[" + i + "] is null; read valid elements only (see isNull)");
                }
                yield dictionary();
            }
            case RUN_END_ENCODED -> {
                checkIndex(i);
                yield child(1);
            }
            default -> this;
        };
    }

    /** @return the index of element {@code i}'s decoded value in {@link #valueOwner} */
    private long decodedIndex(long i) {
        return kind.kind() == ValueKind.Kind.DICTIONARY ? indexAt(offset + i) : runIndex(offset + i);
    }

    private long indexAt(long at) {
        return integer(at);
    }

    private long integer(long at) {
        // Dictionary indices are read here too: their width and signedness come from the field's Int type.
        int width = field.type() instanceof ArrowType.Int t ? t.bitWidth() : kind.bitWidth();
        boolean signed = !(field.type() instanceof ArrowType.Int t && !t.signed());
        return switch (width) {
            case 8 -> signed ? data.get(JAVA_BYTE, at) : Byte.toUnsignedLong(data.get(JAVA_BYTE, at));
            case 16 -> signed ? data.get(JAVA_SHORT_UNALIGNED, at * 2) : Short.toUnsignedLong(data.get(JAVA_SHORT_UNALIGNED, at * 2));
            case 32 -> signed ? data.get(JAVA_INT_UNALIGNED, at * 4) : Integer.toUnsignedLong(data.get(JAVA_INT_UNALIGNED, at * 4));
            default -> data.get(JAVA_LONG_UNALIGNED, at * 8);
        };
    }

    private double floating(long at) {
        return switch (kind.bitWidth()) {
            case 16 -> Float.float16ToFloat(data.get(JAVA_SHORT_UNALIGNED, at * 2));
            case 32 -> data.get(JAVA_FLOAT_UNALIGNED, at * 4);
            default -> data.get(JAVA_DOUBLE_UNALIGNED, at * 8);
        };
    }

    private byte[] bytesAt(long at) {
        return switch (kind.kind()) {
            case FIXED_BINARY -> {
                int width = kind.bitWidth() / 8;
                yield data.asSlice(at * width, width).toArray(JAVA_BYTE);
            }
            case VIEW_BINARY -> view(at);
            default -> variable(at, kind.bitWidth());
        };
    }

    private Object unionValue(ArrowType.Union union, long i) {
        long[] slot = unionSlot(union, i);
        return new UnionValue(data.get(JAVA_BYTE, offset + i), child((int) slot[0]).getObject(slot[1]));
    }

    /** @return the child that element {@code i} selects, and the element of that child's reader it reads */
    private long[] unionSlot(ArrowType.Union union, long i) {
        long at = offset + i;
        int typeId = data.get(JAVA_BYTE, at);
        int k = union.typeIds().indexOf(typeId);
        if (k < 0) {
            throw new IllegalStateException(field.name() + ": slot " + at + " has undeclared type id " + typeId);
        }
        long childIndex = union.mode() == ArrowType.UnionMode.DENSE
                ? memory.buffer(1, (at + 1) * 4).get(JAVA_INT_UNALIGNED, at * 4) : i;
        return new long[] {k, childIndex};
    }

    /** @return the index into the run values of the run holding slot {@code at} */
    private long runIndex(long at) {
        ArrayReader runEnds = child(0);
        long low = 0;
        long high = runEnds.length - 1;
        while (low < high) {
            long mid = (low + high) >>> 1;
            if (runEnds.getLong(mid) > at) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    private MemorySegment sizes(int bits) {
        return memory.buffer(2, (offset + length) * (bits / 8));
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
            out.add(new AbstractMap.SimpleImmutableEntry<>(keys.getObject(j), items.getObject(j)));
        }
        return out;
    }

    private byte[] variable(long at, int bits) {
        long start = offsetAt(data, at, bits);
        long end = offsetAt(data, at + 1, bits);
        if (start < 0 || end < start) {
            throw new IllegalStateException(field.name() + ": offsets[" + at + "] = " + start + ".." + end + " are not ascending");
        }
        if (end == start) {
            return new byte[0];
        }
        MemorySegment bytes = memory.buffer(2, end);
        if (bytes.equals(MemorySegment.NULL)) {
            throw new IllegalStateException(field.name() + ": data buffer is NULL but value " + at + " has " + (end - start) + " bytes");
        }
        return bytes.asSlice(start, end - start).toArray(JAVA_BYTE);
    }

    private byte[] view(long at) {
        MemorySegment view = data.asSlice(at * 16, 16);
        int size = view.get(JAVA_INT_UNALIGNED, 0);
        if (size <= 12) {
            return view.asSlice(4, size).toArray(JAVA_BYTE);
        }
        int index = view.get(JAVA_INT_UNALIGNED, 8);
        int start = view.get(JAVA_INT_UNALIGNED, 12);
        return memory.buffer(2 + index, start + (long) size).asSlice(start, size).toArray(JAVA_BYTE);
    }

    private static long offsetAt(MemorySegment offsets, long index, int bits) {
        return bits == 32 ? offsets.get(JAVA_INT_UNALIGNED, index * 4) : offsets.get(JAVA_LONG_UNALIGNED, index * 8);
    }

    private static ByteBuffer readOnly(byte[] bytes) {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }
}
