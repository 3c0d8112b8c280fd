package dev.quiver.types;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.host.HostVector;
import dev.quiver.host.UnionValue;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One test per rule of full validation: corrupt the data (not the structs) and expect the named fault. */
class FullValidationTest {

    private static void expect(HostVector vector, Consumer<MemorySegment> corrupt, String path, String rule) {
        try (DeviceArray array = vector.toDeviceArray(EveryTypeThroughCTest.NONE)) {
            Interchange.validateFull(array);
            corrupt.accept(Interchange.arrowArray(array));
            InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> Interchange.validateFull(array));
            assertEquals(path, e.fieldPath(), e.getMessage());
            assertTrue(e.getMessage().contains(rule), e.getMessage());
            assertTrue(!array.isClosed(), "a failed validation leaves the array open");
        }
    }

    private static MemorySegment buffer(MemorySegment array, int i) {
        long n = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        return array.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(n * 8).getAtIndex(ADDRESS, i).reinterpret(1 << 20);
    }

    private static MemorySegment child(MemorySegment array, int k) {
        long n = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        return array.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(n * 8).getAtIndex(ADDRESS, k).reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
    }

    @Test
    void offsetsMustAscend() {
        expect(HostVector.utf8("s", "ab", "cd", "ef"), a -> buffer(a, 1).set(JAVA_INT_UNALIGNED, 8, 1), "buffers[1]", "offsets decrease at 2");
    }

    @Test
    void offsetsMustNotBeNegative() {
        expect(HostVector.binary("b", new byte[] {1}), a -> buffer(a, 1).set(JAVA_INT_UNALIGNED, 0, -4), "buffers[1]", "is negative");
    }

    @Test
    void utf8MustBeValid() {
        expect(HostVector.utf8("s", "ok", "bad"), a -> buffer(a, 2).set(JAVA_BYTE, 3, (byte) 0xC3), "buffers[2]", "value 1 is not valid UTF-8");
    }

    @Test
    void nullCountMustMatchTheBitmap() {
        expect(HostVector.int32("i", 1, null, 3), a -> a.set(JAVA_LONG, ArrowArrayLayout.NULL_COUNT, 2), "null_count", "bitmap has 1 nulls");
    }

    @Test
    void listOffsetsMustStayInsideTheChild() {
        HostVector lists = HostVector.of(Field.list("l", true, Field.of("e", new ArrowType.Int(64, true), true)),
                List.of(List.of(1L), List.of(2L, 3L)));
        expect(lists, a -> buffer(a, 1).set(JAVA_INT_UNALIGNED, 8, 9), "buffers[1]", "past the end");
    }

    @Test
    void unionTypeIdsMustBeDeclared() {
        Field union = Field.of("u", new ArrowType.Union(ArrowType.UnionMode.SPARSE, List.of(2, 5)), false,
                List.of(Field.of("a", new ArrowType.Int(32, true), true), Field.of("b", new ArrowType.Utf8(), true)));
        expect(HostVector.of(union, List.of(new UnionValue(2, 1L), new UnionValue(5, "x"))),
                a -> buffer(a, 0).set(JAVA_BYTE, 1, (byte) 3), "buffers[0]", "type id 3, not one of [2, 5]");
    }

    @Test
    void denseUnionOffsetsMustStayInsideTheirChild() {
        Field union = Field.of("u", new ArrowType.Union(ArrowType.UnionMode.DENSE, List.of(0, 1)), false,
                List.of(Field.of("a", new ArrowType.Int(32, true), true), Field.of("b", new ArrowType.Utf8(), true)));
        expect(HostVector.of(union, List.of(new UnionValue(0, 1L), new UnionValue(1, "x"))),
                a -> buffer(a, 1).set(JAVA_INT_UNALIGNED, 4, 7), "buffers[1]", "outside child 1");
    }

    @Test
    void decimalsMustFitTheirPrecision() {
        HostVector decimals = HostVector.of(Field.of("d", new ArrowType.Decimal(38, 0, 128), true),
                List.of(new java.math.BigDecimal("1"), new java.math.BigDecimal("-99999999999999999999999999999999999999")));
        // 2^127 - 1, 39 digits, in the second value: a decimal128(38, 0) holds at most 38
        expect(decimals, a -> {
            buffer(a, 1).set(JAVA_LONG, 16, -1L);
            buffer(a, 1).set(JAVA_LONG, 24, Long.MAX_VALUE);
        }, "buffers[1]", "value 1 (unscaled 170141183460469231731687303715884105727) does not fit in precision 38");
    }

    @Test
    void narrowDecimalsMustFitTheirPrecisionAndNullsAreNotLookedAt() {
        HostVector decimals = HostVector.of(Field.of("d", new ArrowType.Decimal(4, 2, 64), true),
                java.util.Arrays.asList(new java.math.BigDecimal("12.34"), null, new java.math.BigDecimal("-99.99")));
        expect(decimals, a -> {
            buffer(a, 1).set(JAVA_LONG, 8, Long.MIN_VALUE);   // under the null: not a fault
            buffer(a, 1).set(JAVA_LONG, 16, -10_000L);
        }, "buffers[1]", "value 2 (unscaled -10000) does not fit in precision 4");
    }

    @Test
    void dictionaryIndicesMustBeInRange() {
        Field field = Field.of("d", new ArrowType.Int(32, true), true)
                .withDictionary(new Field.DictionaryEncoding(Field.of("v", new ArrowType.Utf8(), true), false));
        expect(HostVector.of(field, List.of("x", "y", "x")), a -> buffer(a, 1).set(JAVA_INT_UNALIGNED, 8, 2),
                "buffers[1]", "index 2 at slot 2 is outside the dictionary of 2 values");
    }

    @Test
    void unsignedDictionaryIndicesPastTheSignedRangeAreNamedAsStored() {
        Field field = Field.of("d", new ArrowType.Int(64, false), true)
                .withDictionary(new Field.DictionaryEncoding(Field.of("v", new ArrowType.Utf8(), true), false));
        expect(HostVector.of(field, List.of("x", "y")), a -> buffer(a, 1).set(JAVA_LONG, 8, -1L),
                "buffers[1]", "index 18446744073709551615 at slot 1 is outside the dictionary of 2 values");
    }

    @Test
    void runEndsMustIncrease() {
        Field field = Field.of("r", new ArrowType.RunEndEncoded(), false, List.of(Field.of("run_ends", new ArrowType.Int(32, true), false),
                Field.of("values", new ArrowType.Utf8(), true)));
        expect(HostVector.of(field, List.of("a", "a", "b", "c")), a -> buffer(child(a, 0), 1).set(JAVA_INT_UNALIGNED, 4, 2),
                "children[0].buffers[1]", "strictly increasing");
    }

    @Test
    void runEndsMustCoverTheArray() {
        Field field = Field.of("r", new ArrowType.RunEndEncoded(), false, List.of(Field.of("run_ends", new ArrowType.Int(16, true), false),
                Field.of("values", new ArrowType.Int(8, true), true)));
        expect(HostVector.of(field, List.of(1L, 2L)), a -> buffer(child(a, 0), 1).set(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, 2, (short) 1),
                "children[0].buffers[1]", "strictly increasing");
    }

    @Test
    void viewsMustNameAnExistingBuffer() {
        expect(HostVector.of(Field.of("v", new ArrowType.Utf8View(), true), List.of("a string longer than twelve")),
                a -> buffer(a, 1).set(JAVA_INT_UNALIGNED, 8, 1), "buffers[1]", "names buffer 1 of 1 variadic buffers");
    }

    @Test
    void viewsMustStayInsideTheirBuffer() {
        expect(HostVector.of(Field.of("v", new ArrowType.BinaryView(), true), List.of(ByteBuffer.wrap(new byte[20]))),
                a -> buffer(a, 1).set(JAVA_INT_UNALIGNED, 12, 5), "buffers[1]", "addresses bytes 5..25");
    }

    @Test
    void viewPrefixesMustMatchTheirData() {
        expect(HostVector.of(Field.of("v", new ArrowType.Utf8View(), true), List.of("abcdefghijklmnop")),
                a -> buffer(a, 1).set(JAVA_BYTE, 4, (byte) 'z'), "buffers[1]", "prefix differs");
    }

    @Test
    void listViewsMustStayInsideTheirChild() {
        HostVector views = HostVector.of(Field.of("l", new ArrowType.ListView(), true, List.of(Field.of("e", new ArrowType.Int(8, true), true))),
                Arrays.asList(List.of(1L, 2L), List.of(3L)));
        expect(views, a -> buffer(a, 2).set(JAVA_INT_UNALIGNED, 0, 3), "buffers[1]", "outside its child of length 3");
    }

    @Test
    void mapKeysMustNotBeNull() {
        Field entries = Field.of("entries", new ArrowType.Struct(), false, List.of(Field.of("key", new ArrowType.Utf8(), true),
                Field.of("value", new ArrowType.Int(32, true), true)));
        HostVector map = HostVector.of(Field.of("m", new ArrowType.MapType(false), true, List.of(entries)),
                List.of(List.of(new AbstractMap.SimpleImmutableEntry<>("k", 1L)), List.of(new AbstractMap.SimpleImmutableEntry<>(null, 2L))));
        try (DeviceArray array = map.toDeviceArray(EveryTypeThroughCTest.NONE)) {
            InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> Interchange.validateFull(array));
            assertEquals("children[0].children[0].null_count", e.fieldPath());
            assertTrue(e.getMessage().contains("map keys must not be null"));
        }
    }

    @Test
    void impliedSizesAreCheckedAgainstKnownCapacities() {
        try (DeviceArray array = HostVector.int64("x", 1L, 2L, 3L).toDeviceArray(EveryTypeThroughCTest.NONE)) {
            InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> Interchange.validateFull(array, pointer -> 16));
            assertEquals("buffers[1]", e.fieldPath());
            assertTrue(e.getMessage().contains("addresses 24 bytes but the buffer holds 16"), e.getMessage());
        }
    }
}
