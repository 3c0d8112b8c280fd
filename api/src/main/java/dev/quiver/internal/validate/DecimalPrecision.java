package dev.quiver.internal.validate;

import dev.quiver.type.ArrowType;

import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * Finds a decimal whose unscaled value has more digits than its type's precision, as Arrow C++'s full
 * validation does ("does not fit in precision"). Values under a null are not looked at. Values that fit in a
 * {@code long} are compared without allocating; wider ones through {@link BigInteger}. Stateless.
 */
final class DecimalPrecision {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private DecimalPrecision() {}

    /**
     * @param type     the decimal type
     * @param data     the values buffer, holding at least {@code end} values
     * @param validity the validity bitmap, or NULL when every value is valid
     * @param offset   the first slot
     * @param end      one past the last slot
     * @return the first slot in {@code [offset, end)} that is valid and out of range, or -1
     */
    static long firstOutOfRange(ArrowType.Decimal type, MemorySegment data, MemorySegment validity, long offset, long end) {
        int width = type.bitWidth() / 8;
        int precision = type.precision();
        // every long has at most 19 digits, so from precision 19 on every value a long holds fits
        long limit = precision < POWERS_OF_TEN.length ? POWERS_OF_TEN[precision] : 0;
        BigInteger bigLimit = BigInteger.TEN.pow(precision);
        for (long at = offset; at < end; at++) {
            if (!validity.equals(MemorySegment.NULL) && (validity.get(JAVA_BYTE, at >>> 3) & (1 << (at & 7))) == 0) {
                continue;
            }
            long base = at * width;
            boolean fits = switch (width) {
                case 4 -> inRange(data.get(JAVA_INT_UNALIGNED, base), limit);
                case 8 -> inRange(data.get(JAVA_LONG_UNALIGNED, base), limit);
                default -> wide(data, base, width, limit, bigLimit);
            };
            if (!fits) {
                return at;
            }
        }
        return -1;
    }

    /** @return the unscaled value at {@code slot}, for the message */
    static BigInteger value(ArrowType.Decimal type, MemorySegment data, long slot) {
        int width = type.bitWidth() / 8;
        byte[] bytes = data.asSlice(slot * width, width).toArray(JAVA_BYTE);
        if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
            for (int i = 0, j = width - 1; i < j; i++, j--) {
                byte b = bytes[i];
                bytes[i] = bytes[j];
                bytes[j] = b;
            }
        }
        return new BigInteger(bytes);
    }

    /** @return whether {@code |value| < limit}, for a limit of at most 10^18 */
    private static boolean inRange(long value, long limit) {
        return value > -limit && value < limit;
    }

    /**
     * 128- and 256-bit values: words above the lowest that only extend its sign are compared as a long.
     * {@code limit} is 10^precision, or 0 when the precision is 19 or more (every long fits).
     */
    private static boolean wide(MemorySegment data, long base, int width, long limit, BigInteger bigLimit) {
        long low = data.get(JAVA_LONG_UNALIGNED, base);
        long extension = low < 0 ? -1L : 0L;
        boolean signExtended = true;
        for (int word = 8; word < width && signExtended; word += 8) {
            signExtended = data.get(JAVA_LONG_UNALIGNED, base + word) == extension;
        }
        if (signExtended) {
            return limit == 0 || inRange(low, limit);
        }
        byte[] bytes = new byte[width];
        for (int i = 0; i < width; i++) {
            bytes[i] = data.get(JAVA_BYTE, base + width - 1 - i);
        }
        return new BigInteger(bytes).abs().compareTo(bigLimit) < 0;
    }
}
