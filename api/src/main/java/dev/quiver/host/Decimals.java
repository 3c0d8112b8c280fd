package dev.quiver.host;

import dev.quiver.type.ArrowType;

import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/** Arrow decimals (two's complement little-endian integers of the type's width) to and from {@link BigDecimal}. Stateless. */
final class Decimals {
    private Decimals() {}

    /**
     * @return the storage of {@code value}: {@code bitWidth / 8} little-endian bytes
     * @throws IllegalArgumentException if the value needs rounding to the type's scale or has more digits than
     *                                  its precision
     */
    static byte[] encode(ArrowType.Decimal type, BigDecimal value) {
        BigInteger unscaled;
        try {
            unscaled = value.setScale(type.scale(), RoundingMode.UNNECESSARY).unscaledValue();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(value + " does not fit scale " + type.scale() + " without rounding", e);
        }
        if (unscaled.abs().toString().length() > type.precision()) {
            throw new IllegalArgumentException(value + " has more than " + type.precision() + " digits");
        }
        byte[] bigEndian = unscaled.toByteArray();
        byte[] out = new byte[type.bitWidth() / 8];
        Arrays.fill(out, (byte) (unscaled.signum() < 0 ? -1 : 0));
        for (int i = 0; i < bigEndian.length; i++) {
            out[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return out;
    }

    /** @return value {@code at} of a decimal data buffer */
    static BigDecimal read(ArrowType.Decimal type, MemorySegment data, long at) {
        int width = type.bitWidth() / 8;
        byte[] littleEndian = data.asSlice(at * width, width).toArray(JAVA_BYTE);
        byte[] bigEndian = new byte[width];
        for (int i = 0; i < width; i++) {
            bigEndian[i] = littleEndian[width - 1 - i];
        }
        return new BigDecimal(new BigInteger(bigEndian), type.scale());
    }
}
