package dev.quiver.cai;

import dev.quiver.InterchangeException;
import dev.quiver.type.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteOrder;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The {@code typestr} of every primitive type, both ways. */
class TypeStringsTest {
    private static final String NATIVE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? "<" : ">";

    static Stream<Arguments> everyPrimitiveType() {
        return Stream.of(
                Arguments.of(ArrowType.integer(8, true), "|i1"), Arguments.of(ArrowType.integer(16, true), NATIVE + "i2"),
                Arguments.of(ArrowType.integer(32, true), NATIVE + "i4"), Arguments.of(ArrowType.integer(64, true), NATIVE + "i8"),
                Arguments.of(ArrowType.integer(8, false), "|u1"), Arguments.of(ArrowType.integer(16, false), NATIVE + "u2"),
                Arguments.of(ArrowType.integer(32, false), NATIVE + "u4"), Arguments.of(ArrowType.integer(64, false), NATIVE + "u8"),
                Arguments.of(ArrowType.floatingPoint(16), NATIVE + "f2"), Arguments.of(ArrowType.floatingPoint(32), NATIVE + "f4"),
                Arguments.of(ArrowType.floatingPoint(64), NATIVE + "f8"), Arguments.of(ArrowType.bool(), "|b1"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("everyPrimitiveType")
    void everyPrimitiveTypeHasATypestrThatParsesBack(ArrowType type, String typestr) {
        assertEquals(typestr, TypeStrings.of(type));
        assertEquals(type, TypeStrings.arrowType(typestr));
    }

    @Test
    void nativeOrderAndSingleBytesInAnyOrderParse() {
        assertEquals(ArrowType.integer(32, true), TypeStrings.arrowType("=i4"));
        assertEquals(ArrowType.integer(8, false), TypeStrings.arrowType("<u1"));
    }

    @Test
    void typesWithoutATypestrAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> TypeStrings.of(ArrowType.utf8()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"<c8", "<m8", "<M8", "|O8", "|S4", "<U2", "|V16", "<f16", "<i3", "|b2"})
    void kindsAndSizesWithoutAnArrowEquivalentAreRefused(String typestr) {
        assertEquals("typestr", assertThrows(InterchangeException.class, () -> TypeStrings.arrowType(typestr)).fieldPath());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "i4", "<i", "<x4", "|i4", "<ix"})
    void malformedTypestrsAreInvalid(String typestr) {
        assertEquals("typestr", assertThrows(InterchangeException.class, () -> TypeStrings.arrowType(typestr)).fieldPath());
    }

    @Test
    void theOtherByteOrderIsRefused() {
        String other = NATIVE.equals("<") ? ">i4" : "<i4";
        assertThrows(InterchangeException.class, () -> TypeStrings.arrowType(other));
    }
}
