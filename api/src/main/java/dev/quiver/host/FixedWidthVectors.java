package dev.quiver.host;

import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.IntervalUnit;
import dev.quiver.type.TimeUnit;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Builds {@link HostVector}s of every fixed-width type from Java primitive arrays, without boxing: the
 * vector wraps the array, and its {@link HostVector#toDeviceArray()} copies the values straight from it into
 * 64-byte aligned native memory with one bulk {@link java.lang.foreign.MemorySegment#copy}.
 * Each value is given in its Arrow storage: unsigned integers as their bits in the signed Java type of the
 * same width, float16 as its IEEE 754 half-precision bits, dates, times, timestamps and durations as
 * their integer counts, decimals as their unscaled two's complement integers (decimal128 and decimal256 as
 * 2 or 4 little-endian 64-bit words per value, least significant word first).
 *
 * <p>The vector has as many elements as the array has values; {@code validity} says which are null and must
 * describe at least that many ({@link Validity#allValid()} for none). Values in null slots are copied as
 * given. The vector's field is nullable and named {@code name}.
 *
 * <p><b>Ownership and threads.</b> The vector <em>wraps</em> the caller's values array, as
 * {@link java.nio.ByteBuffer#wrap(byte[])} does (on a big-endian platform it holds a byte-swapped copy
 * instead): it reads the array whenever it is read or turned into a device array, so the caller must not
 * modify the array while the vector is in use (give it {@code values.clone()} to keep using the array).
 * Validity is copied into a bitmap of the vector's own, as are booleans (bit-packed) and month-day-nano
 * intervals (interleaved). Device arrays made from the vector hold copies and never see later changes. The
 * vector owns no native memory. Builders are stateless: any thread may call any method; a vector may be
 * read from several threads while nobody writes its array.
 *
 * {@snippet class=dev.quiver.snippets.HostSnippets region=int64}
 *
 * @see BinaryVectors for utf8 and binary
 */
public final class FixedWidthVectors {
    private FixedWidthVectors() {}

    /**
     * {@return a boolean vector}
     * @param name     field name
     * @param values   the booleans, bit-packed by the builder
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector bool(String name, boolean[] values, Validity validity) {
        Objects.requireNonNull(values, "values");
        return build(name, ArrowType.bool(), MemorySegment.ofArray(Bitmaps.pack(values, values.length)), values.length, validity);
    }

    /**
     * {@return an int8 vector}
     * @param name     field name
     * @param values   the values
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector int8(String name, byte[] values, Validity validity) {
        return bytes(name, new ArrowType.Int(8, true), values, validity);
    }

    /**
     * {@return a uint8 vector}
     * @param name     field name
     * @param values   the values as their bits (a byte of -1 is 255)
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector uint8(String name, byte[] values, Validity validity) {
        return bytes(name, new ArrowType.Int(8, false), values, validity);
    }

    /**
     * {@return an int16 vector}
     * @param name     field name
     * @param values   the values
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector int16(String name, short[] values, Validity validity) {
        return shorts(name, new ArrowType.Int(16, true), values, validity);
    }

    /**
     * {@return a uint16 vector}
     * @param name     field name
     * @param values   the values as their bits
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector uint16(String name, short[] values, Validity validity) {
        return shorts(name, new ArrowType.Int(16, false), values, validity);
    }

    /**
     * {@return an int32 vector}
     * @param name     field name
     * @param values   the values
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector int32(String name, int[] values, Validity validity) {
        return ints(name, new ArrowType.Int(32, true), values, validity);
    }

    /**
     * {@return a uint32 vector}
     * @param name     field name
     * @param values   the values as their bits
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector uint32(String name, int[] values, Validity validity) {
        return ints(name, new ArrowType.Int(32, false), values, validity);
    }

    /**
     * {@return an int64 vector}
     * @param name     field name
     * @param values   the values
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector int64(String name, long[] values, Validity validity) {
        return longs(name, new ArrowType.Int(64, true), values, validity);
    }

    /**
     * {@return a uint64 vector}
     * @param name     field name
     * @param values   the values as their bits
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector uint64(String name, long[] values, Validity validity) {
        return longs(name, new ArrowType.Int(64, false), values, validity);
    }

    /**
     * {@return a float16 vector}
     * @param name     field name
     * @param bits     the values as IEEE 754 half-precision bits ({@link Float#floatToFloat16})
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code bits} holds
     */
    public static HostVector float16(String name, short[] bits, Validity validity) {
        return shorts(name, ArrowType.floatingPoint(16), bits, validity);
    }

    /**
     * {@return a float32 vector}
     * @param name     field name
     * @param values   the values
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector float32(String name, float[] values, Validity validity) {
        Objects.requireNonNull(values, "values");
        return build(name, ArrowType.floatingPoint(32), LittleEndian.wrap(values), values.length, validity);
    }

    /**
     * {@return a float64 vector}
     * @param name     field name
     * @param values   the values
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector float64(String name, double[] values, Validity validity) {
        Objects.requireNonNull(values, "values");
        return build(name, ArrowType.floatingPoint(64), LittleEndian.wrap(values), values.length, validity);
    }

    /**
     * {@return a date32 vector}
     * @param name     field name
     * @param days     days since the UNIX epoch
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code days} holds
     */
    public static HostVector date32(String name, int[] days, Validity validity) {
        return ints(name, ArrowType.Date.days(), days, validity);
    }

    /**
     * {@return a date64 vector}
     * @param name         field name
     * @param milliseconds milliseconds since the UNIX epoch
     * @param validity     which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code milliseconds} holds
     */
    public static HostVector date64(String name, long[] milliseconds, Validity validity) {
        return longs(name, ArrowType.Date.milliseconds(), milliseconds, validity);
    }

    /**
     * {@return a time32 vector}
     * @param name     field name
     * @param unit     {@link TimeUnit#SECOND} or {@link TimeUnit#MILLISECOND}
     * @param values   times since midnight in {@code unit}
     * @param validity which values are valid
     * @throws IllegalArgumentException if the unit is finer than milliseconds, or {@code validity} describes
     *                                  too few values
     */
    public static HostVector time32(String name, TimeUnit unit, int[] values, Validity validity) {
        ArrowType.Time type = new ArrowType.Time(Objects.requireNonNull(unit, "unit"));
        if (type.bitWidth() != 32) {
            throw new IllegalArgumentException(name + ": time32 holds seconds or milliseconds, not " + unit + "; use time64");
        }
        return ints(name, type, values, validity);
    }

    /**
     * {@return a time64 vector}
     * @param name     field name
     * @param unit     {@link TimeUnit#MICROSECOND} or {@link TimeUnit#NANOSECOND}
     * @param values   times since midnight in {@code unit}
     * @param validity which values are valid
     * @throws IllegalArgumentException if the unit is coarser than microseconds, or {@code validity}
     *                                  describes too few values
     */
    public static HostVector time64(String name, TimeUnit unit, long[] values, Validity validity) {
        ArrowType.Time type = new ArrowType.Time(Objects.requireNonNull(unit, "unit"));
        if (type.bitWidth() != 64) {
            throw new IllegalArgumentException(name + ": time64 holds microseconds or nanoseconds, not " + unit + "; use time32");
        }
        return longs(name, type, values, validity);
    }

    /**
     * {@return a timestamp vector}
     * @param name     field name
     * @param unit     the unit
     * @param timezone an IANA zone name or offset, or {@code ""} for a zone-less timestamp
     * @param values   instants since the UNIX epoch in {@code unit}
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector timestamp(String name, TimeUnit unit, String timezone, long[] values, Validity validity) {
        return longs(name, new ArrowType.Timestamp(Objects.requireNonNull(unit, "unit"), timezone), values, validity);
    }

    /**
     * {@return a duration vector}
     * @param name     field name
     * @param unit     the unit
     * @param values   durations in {@code unit}
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code values} holds
     */
    public static HostVector duration(String name, TimeUnit unit, long[] values, Validity validity) {
        return longs(name, new ArrowType.Duration(Objects.requireNonNull(unit, "unit")), values, validity);
    }

    /**
     * {@return a year-month interval vector}
     * @param name     field name
     * @param months   the intervals in months
     * @param validity which values are valid
     * @throws IllegalArgumentException if {@code validity} describes fewer values than {@code months} holds
     */
    public static HostVector intervalYearMonth(String name, int[] months, Validity validity) {
        return ints(name, new ArrowType.Interval(IntervalUnit.YEAR_MONTH), months, validity);
    }

    /**
     * {@return a day-time interval vector of {@code daysAndMillis.length / 2} values}
     * @param name               field name
     * @param daysAndMillis      two ints per value: days, then milliseconds
     * @param validity           which values are valid
     * @throws IllegalArgumentException if the array's length is odd or {@code validity} describes too few values
     */
    public static HostVector intervalDayTime(String name, int[] daysAndMillis, Validity validity) {
        Objects.requireNonNull(daysAndMillis, "daysAndMillis");
        int length = perValue(name, "day-time interval", daysAndMillis.length, 2, "ints (days, milliseconds)");
        return build(name, new ArrowType.Interval(IntervalUnit.DAY_TIME), LittleEndian.wrap(daysAndMillis), length, validity);
    }

    /**
     * {@return a month-day-nano interval vector}
     * @param name        field name
     * @param months      months of each value
     * @param days        days of each value, as many as {@code months}
     * @param nanoseconds nanoseconds of each value, as many as {@code months}
     * @param validity    which values are valid
     * @throws IllegalArgumentException if the arrays differ in length or {@code validity} describes too few values
     */
    public static HostVector intervalMonthDayNano(String name, int[] months, int[] days, long[] nanoseconds, Validity validity) {
        Objects.requireNonNull(months, "months");
        Objects.requireNonNull(days, "days");
        Objects.requireNonNull(nanoseconds, "nanoseconds");
        int length = months.length;
        if (days.length != length || nanoseconds.length != length) {
            throw new IllegalArgumentException(name + ": month-day-nano intervals need as many days and nanoseconds as months; got "
                    + length + " months, " + days.length + " days, " + nanoseconds.length + " nanoseconds");
        }
        MemorySegment storage = MemorySegment.ofArray(new byte[Math.multiplyExact(length, 16)]);
        for (int i = 0; i < length; i++) {
            storage.set(LittleEndian.INT, i * 16L, months[i]);
            storage.set(LittleEndian.INT, i * 16L + 4, days[i]);
            storage.set(LittleEndian.LONG, i * 16L + 8, nanoseconds[i]);
        }
        return build(name, new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO), storage, length, validity);
    }

    /**
     * {@return a decimal32 vector}
     * @param name      field name
     * @param precision total digits, 1..9
     * @param scale     digits after the point
     * @param unscaled  the unscaled values (not checked against the precision)
     * @param validity  which values are valid
     * @throws IllegalArgumentException if the precision is out of range or {@code validity} describes too few values
     */
    public static HostVector decimal32(String name, int precision, int scale, int[] unscaled, Validity validity) {
        return ints(name, new ArrowType.Decimal(precision, scale, 32), unscaled, validity);
    }

    /**
     * {@return a decimal64 vector}
     * @param name      field name
     * @param precision total digits, 1..18
     * @param scale     digits after the point
     * @param unscaled  the unscaled values (not checked against the precision)
     * @param validity  which values are valid
     * @throws IllegalArgumentException if the precision is out of range or {@code validity} describes too few values
     */
    public static HostVector decimal64(String name, int precision, int scale, long[] unscaled, Validity validity) {
        return longs(name, new ArrowType.Decimal(precision, scale, 64), unscaled, validity);
    }

    /**
     * {@return a decimal128 vector of {@code words.length / 2} values}
     * @param name      field name
     * @param precision total digits, 1..38
     * @param scale     digits after the point
     * @param words     the unscaled values as 128-bit two's complement integers, 2 words per value, least
     *                  significant first (not checked against the precision)
     * @param validity  which values are valid
     * @throws IllegalArgumentException if the precision is out of range, the words do not make whole values,
     *                                  or {@code validity} describes too few values
     */
    public static HostVector decimal128(String name, int precision, int scale, long[] words, Validity validity) {
        return wideDecimal(name, new ArrowType.Decimal(precision, scale, 128), words, validity);
    }

    /**
     * {@return a decimal256 vector of {@code words.length / 4} values}
     * @param name      field name
     * @param precision total digits, 1..76
     * @param scale     digits after the point
     * @param words     the unscaled values as 256-bit two's complement integers, 4 words per value, least
     *                  significant first (not checked against the precision)
     * @param validity  which values are valid
     * @throws IllegalArgumentException if the precision is out of range, the words do not make whole values,
     *                                  or {@code validity} describes too few values
     */
    public static HostVector decimal256(String name, int precision, int scale, long[] words, Validity validity) {
        return wideDecimal(name, new ArrowType.Decimal(precision, scale, 256), words, validity);
    }

    /**
     * {@return a fixed-size binary vector of {@code values.length / width} values}
     * @param name     field name
     * @param width    bytes per value, at least 1
     * @param values   the values back to back, {@code width} bytes each
     * @param validity which values are valid
     * @throws IllegalArgumentException if the width is not positive, the bytes do not make whole values, or
     *                                  {@code validity} describes too few values
     */
    public static HostVector fixedSizeBinary(String name, int width, byte[] values, Validity validity) {
        Objects.requireNonNull(values, "values");
        if (width < 1) {
            throw new IllegalArgumentException(name + ": fixed-size binary width must be at least 1, not " + width);
        }
        int length = perValue(name, "fixed-size binary w:" + width, values.length, width, "bytes");
        return build(name, new ArrowType.FixedSizeBinary(width), MemorySegment.ofArray(values), length, validity);
    }

    private static HostVector wideDecimal(String name, ArrowType.Decimal type, long[] words, Validity validity) {
        Objects.requireNonNull(words, "words");
        int perValue = type.bitWidth() / 64;
        int length = perValue(name, "decimal" + type.bitWidth(), words.length, perValue, "64-bit words");
        return build(name, type, LittleEndian.wrap(words), length, validity);
    }

    private static int perValue(String name, String type, int given, int perValue, String units) {
        if (given % perValue != 0) {
            throw new IllegalArgumentException(name + ": " + type + " takes " + perValue + " " + units + " per value; "
                    + given + " is not a multiple of " + perValue);
        }
        return given / perValue;
    }

    private static HostVector bytes(String name, ArrowType type, byte[] values, Validity validity) {
        Objects.requireNonNull(values, "values");
        return build(name, type, MemorySegment.ofArray(values), values.length, validity);
    }

    private static HostVector shorts(String name, ArrowType type, short[] values, Validity validity) {
        Objects.requireNonNull(values, "values");
        return build(name, type, LittleEndian.wrap(values), values.length, validity);
    }

    private static HostVector ints(String name, ArrowType type, int[] values, Validity validity) {
        Objects.requireNonNull(values, "values");
        return build(name, type, LittleEndian.wrap(values), values.length, validity);
    }

    private static HostVector longs(String name, ArrowType type, long[] values, Validity validity) {
        Objects.requireNonNull(values, "values");
        return build(name, type, LittleEndian.wrap(values), values.length, validity);
    }

    private static HostVector build(String name, ArrowType type, MemorySegment storage, int length, Validity validity) {
        return leaf(name, type, length, validity, storage);
    }

    /**
     * Makes a vector of {@code length} values with no children from its heap buffers after the validity bitmap.
     *
     * @throws IllegalArgumentException if {@code validity} describes fewer than {@code length} values
     */
    static HostVector leaf(String name, ArrowType type, int length, Validity validity, MemorySegment... data) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(validity, "validity (use Validity.allValid() for no nulls)");
        Validity.Bitmap bitmap = validity.toBitmap(length, name);
        List<MemorySegment> buffers = new ArrayList<>(data.length + 1);
        buffers.add(bitmap.bits());
        buffers.addAll(Arrays.asList(data));
        return HostVector.ofEncoded(Field.of(name, type, true), new HostEncoder.Node(length, bitmap.nullCount(), buffers, List.of(), null));
    }
}
