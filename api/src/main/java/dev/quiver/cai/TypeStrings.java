package dev.quiver.cai;

import dev.quiver.InterchangeException;
import dev.quiver.internal.tensor.ElementType;
import dev.quiver.type.ArrowType;

import java.nio.ByteOrder;

/**
 * The {@code typestr} of the CUDA Array Interface (the NumPy array interface's): a byte-order character
 * ({@code <} little-endian, {@code >} big-endian, {@code |} not applicable, {@code =} native), a kind
 * character and the element size in bytes. Every fixed-width primitive has one: {@code |i1 <i2 <i4 <i8},
 * {@code |u1 <u2 <u4 <u8}, {@code <f2 <f4 <f8}, and {@code |b1} for booleans (one byte per value, unlike
 * Arrow's bit-packed booleans). Multi-byte types are written in the platform's byte order. Stateless and
 * thread-safe.
 */
final class TypeStrings {
    private static final char NATIVE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? '<' : '>';

    private TypeStrings() {}

    /**
     * @param type an Arrow type
     * @return its {@code typestr}
     * @throws IllegalArgumentException if the type is not a fixed-width primitive
     */
    static String of(ArrowType type) {
        return of(ElementType.of(type).orElseThrow(() -> new IllegalArgumentException(
                "format \"" + type.format() + "\" is not a fixed-width primitive and has no typestr")));
    }

    /**
     * @param typestr a {@code typestr}
     * @return the Arrow type of its elements ({@code |b1} gives Arrow's boolean, whose layout differs)
     * @throws InterchangeException if it is malformed
     * @throws InterchangeException if it has no Arrow fixed-width equivalent here
     */
    static ArrowType arrowType(String typestr) {
        return parse(typestr, "typestr").arrowType();
    }

    static String of(ElementType element) {
        char kind = switch (element.kind()) {
            case SIGNED -> 'i';
            case UNSIGNED -> 'u';
            case FLOAT -> 'f';
            case BOOL -> 'b';
        };
        return (element.byteSize() == 1 ? '|' : NATIVE) + String.valueOf(kind) + element.byteSize();
    }

    static ElementType parse(String typestr, String path) {
        if (typestr.length() < 3 || "<>|=".indexOf(typestr.charAt(0)) < 0) {
            throw new InterchangeException(path, "\"" + typestr + "\" is not a typestr (byte order < > | =, kind, size in bytes)");
        }
        char order = typestr.charAt(0);
        char kind = typestr.charAt(1);
        int size;
        try {
            size = Integer.parseInt(typestr.substring(2));
        } catch (NumberFormatException e) {
            throw new InterchangeException(path, "\"" + typestr + "\" has no element size after the kind");
        }
        if ("cmMOSUV".indexOf(kind) >= 0) {
            throw new InterchangeException(path, "\"" + typestr + "\" (complex, datetime, object, string or void) has no Arrow "
                    + "fixed-width equivalent here; supported kinds are b, i, u and f");
        }
        ElementType.Kind elementKind = switch (kind) {
            case 'b' -> ElementType.Kind.BOOL;
            case 'i' -> ElementType.Kind.SIGNED;
            case 'u' -> ElementType.Kind.UNSIGNED;
            case 'f' -> ElementType.Kind.FLOAT;
            default -> throw new InterchangeException(path, "\"" + typestr + "\" has unknown kind '" + kind + "'");
        };
        ElementType element;
        try {
            element = new ElementType(elementKind, size);
        } catch (IllegalArgumentException e) {
            throw new InterchangeException(path, "\"" + typestr + "\": " + e.getMessage());
        }
        if (size > 1 && order == '|') {
            throw new InterchangeException(path, "\"" + typestr + "\": byte order '|' is for single-byte types");
        }
        if (size > 1 && order != '=' && order != NATIVE) {
            throw new InterchangeException(path, "\"" + typestr + "\" is in the other byte order than this platform's ('" + NATIVE
                    + "'); Arrow data is in native order");
        }
        return element;
    }
}
