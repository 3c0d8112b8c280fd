package dev.quiver.host;

import dev.quiver.type.ArrowType;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/**
 * Builds utf8 and binary {@link HostVector}s (32-bit offsets, and the large variants with 64-bit offsets)
 * from one {@code byte[]} holding every value back to back and the Arrow offsets into it, without boxing:
 * value {@code k} is {@code data[offsets[k] .. offsets[k + 1] - 1]}, so {@code n} values take {@code n + 1}
 * offsets. The builder checks the offsets (ascending, within the data) and, for utf8, that every value is
 * well-formed UTF-8, then copies offsets and the bytes they reach with one bulk copy each.
 *
 * <p>{@code validity} says which values are null and must describe at least {@code offsets.length - 1}
 * values ({@link Validity#allValid()} for none); a null value may still span bytes. The vector's field is
 * nullable and named {@code name}.
 *
 * <p><b>Ownership and threads.</b> Builders copy what they are given during the call and keep no
 * reference to the caller's arrays; those must not be modified by another thread during the call. The
 * returned vector is immutable and owns no native memory. Stateless: any thread may call any method.
 *
 * {@snippet class=dev.quiver.snippets.HostSnippets region=utf8}
 *
 * @see FixedWidthVectors for fixed-width types
 */
public final class BinaryVectors {
    private BinaryVectors() {}

    /**
     * {@return a utf8 vector of {@code offsets.length - 1} values}
     * @param name     field name
     * @param data     the UTF-8 bytes of every value, back to back
     * @param offsets  where each value starts, then where the last one ends; ascending, within {@code data}
     * @param validity which values are valid
     * @throws IllegalArgumentException if the offsets are empty, descend or pass the data, a value is not
     *                                  well-formed UTF-8, or {@code validity} describes too few values
     */
    public static HostVector utf8(String name, byte[] data, int[] offsets, Validity validity) {
        return build(name, ArrowType.utf8(), data, offsets, validity);
    }

    /**
     * {@return a large utf8 vector of {@code offsets.length - 1} values}
     * @param name     field name
     * @param data     the UTF-8 bytes of every value, back to back
     * @param offsets  where each value starts, then where the last one ends; ascending, within {@code data}
     * @param validity which values are valid
     * @throws IllegalArgumentException if the offsets are empty, descend or pass the data, a value is not
     *                                  well-formed UTF-8, or {@code validity} describes too few values
     */
    public static HostVector largeUtf8(String name, byte[] data, long[] offsets, Validity validity) {
        return build(name, new ArrowType.LargeUtf8(), data, offsets, validity);
    }

    /**
     * {@return a binary vector of {@code offsets.length - 1} values}
     * @param name     field name
     * @param data     the bytes of every value, back to back
     * @param offsets  where each value starts, then where the last one ends; ascending, within {@code data}
     * @param validity which values are valid
     * @throws IllegalArgumentException if the offsets are empty, descend or pass the data, or {@code validity}
     *                                  describes too few values
     */
    public static HostVector binary(String name, byte[] data, int[] offsets, Validity validity) {
        return build(name, ArrowType.binary(), data, offsets, validity);
    }

    /**
     * {@return a large binary vector of {@code offsets.length - 1} values}
     * @param name     field name
     * @param data     the bytes of every value, back to back
     * @param offsets  where each value starts, then where the last one ends; ascending, within {@code data}
     * @param validity which values are valid
     * @throws IllegalArgumentException if the offsets are empty, descend or pass the data, or {@code validity}
     *                                  describes too few values
     */
    public static HostVector largeBinary(String name, byte[] data, long[] offsets, Validity validity) {
        return build(name, new ArrowType.LargeBinary(), data, offsets, validity);
    }

    // Offsets and data are checked after they are copied, so that nothing the caller does meanwhile can
    // make the vector's offsets point outside its data.
    private static HostVector build(String name, ArrowType type, byte[] data, int[] offsets, Validity validity) {
        int[] own = Objects.requireNonNull(offsets, "offsets").clone();
        int length = checkOffsets(name, data, own.length, k -> own[k]);
        return build(name, type, data, k -> own[k], length, LittleEndian.wrap(own), validity);
    }

    private static HostVector build(String name, ArrowType type, byte[] data, long[] offsets, Validity validity) {
        long[] own = Objects.requireNonNull(offsets, "offsets").clone();
        int length = checkOffsets(name, data, own.length, k -> own[k]);
        return build(name, type, data, k -> own[k], length, LittleEndian.wrap(own), validity);
    }

    private static HostVector build(String name, ArrowType type, byte[] data, Utf8Check.Offsets offsets, int length,
                                    MemorySegment offsetBuffer, Validity validity) {
        byte[] bytes = Arrays.copyOf(data, Math.toIntExact(offsets.at(length)));
        if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
            Utf8Check.check(name, bytes, offsets, length);
        }
        return FixedWidthVectors.leaf(name, type, length, validity, offsetBuffer, MemorySegment.ofArray(bytes));
    }

    /** @return the number of values; checks the offsets ascend from 0 or more to at most the data's length */
    private static int checkOffsets(String name, byte[] data, int count, Utf8Check.Offsets offsets) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(data, "data");
        if (count == 0) {
            throw new IllegalArgumentException(name + ": offsets must hold at least one entry (n values take n + 1 offsets)");
        }
        long previous = offsets.at(0);
        if (previous < 0) {
            throw new IllegalArgumentException(name + ": offsets[0] = " + previous + " is negative");
        }
        for (int k = 1; k < count; k++) {
            long next = offsets.at(k);
            if (next < previous) {
                throw new IllegalArgumentException(name + ": offsets are not monotonic: offsets[" + k + "] = " + next
                        + " is below offsets[" + (k - 1) + "] = " + previous);
            }
            previous = next;
        }
        if (previous > data.length) {
            throw new IllegalArgumentException(name + ": offsets[" + (count - 1) + "] = " + previous + " is past the end of the "
                    + data.length + " bytes of data");
        }
        return count - 1;
    }
}
