package dev.quiver.types;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Full validation at every decimal precision boundary: for each width (32, 64, 128, 256 bits) and each
 * precision it allows, the largest and smallest values of that many digits are accepted and the values one
 * past them (plus and minus 10^precision) are refused, naming the slot and the value. The values a 64-bit
 * word holds at its extremes (2^63 - 1, -(2^63 - 1), -2^63: 19 digits each) are accepted from precision 19
 * on and refused below it, also in the wider decimals, whose check compares them as a {@code long}.
 */
class DecimalPrecisionBoundariesTest {
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);

    static Stream<Arguments> precisions() {
        return Stream.of(new int[] {32, 9}, new int[] {64, 18}, new int[] {128, 38}, new int[] {256, 76})
                .flatMap(w -> IntStream.rangeClosed(1, w[1]).mapToObj(p -> Arguments.of(w[0], p)));
    }

    @ParameterizedTest(name = "decimal{0}({1}, 0)")
    @MethodSource("precisions")
    void theLargestAndSmallestValuesFitAndOnePastThemDoesNot(int bitWidth, int precision) {
        BigInteger largest = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
        List<BigInteger> fitting = new ArrayList<>(List.of(largest, largest.negate()));
        List<BigInteger> past = new ArrayList<>(List.of(largest.add(BigInteger.ONE), largest.add(BigInteger.ONE).negate()));
        if (bitWidth >= 128) {
            List<BigInteger> longExtremes = List.of(LONG_MAX, LONG_MAX.negate(), LONG_MIN);
            (precision >= 19 ? fitting : past).addAll(longExtremes);
        }
        ArrowType.Decimal type = new ArrowType.Decimal(precision, 0, bitWidth);
        List<BigDecimal> values = fitting.stream().map(BigDecimal::new).toList();
        try (DeviceArray array = HostVector.of(Field.of("d", type, true), values).toDeviceArray(EveryTypeThroughCTest.NONE)) {
            MemorySegment data = dataBuffer(Interchange.arrowArray(array), fitting.size() * (bitWidth / 8L));
            for (int slot = 0; slot < fitting.size(); slot++) {
                write(data, slot, bitWidth, fitting.get(slot));
            }
            assertDoesNotThrow(() -> Interchange.validateFull(array), () -> "decimal" + bitWidth + "(" + precision + ") holds " + fitting);
            for (BigInteger value : past) {
                write(data, 1, bitWidth, value);
                InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> Interchange.validateFull(array),
                        () -> "decimal" + bitWidth + "(" + precision + ") does not hold " + value);
                assertEquals("buffers[1]", e.fieldPath(), e.getMessage());
                assertTrue(e.getMessage().contains("value 1 (unscaled " + value + ") does not fit in precision " + precision), e.getMessage());
                write(data, 1, bitWidth, fitting.get(1));
            }
        }
    }

    private static MemorySegment dataBuffer(MemorySegment array, long bytes) {
        long n = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        return array.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(n * 8).getAtIndex(ADDRESS, 1).reinterpret(bytes);
    }

    /** Writes {@code value} as a two's complement little-endian integer of {@code bitWidth} bits into a slot. */
    private static void write(MemorySegment data, int slot, int bitWidth, BigInteger value) {
        int width = bitWidth / 8;
        for (int i = 0; i < width; i++) {
            data.set(JAVA_BYTE, (long) slot * width + i, value.shiftRight(8 * i).byteValue());
        }
    }
}
