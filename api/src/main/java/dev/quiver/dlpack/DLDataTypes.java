package dev.quiver.dlpack;

import dev.quiver.InterchangeException;
import dev.quiver.internal.tensor.ElementType;

/** DLPack {@code DLDataTypeCode} values and their mapping to element types. */
final class DLDataTypes {
    static final int INT = 0;
    static final int UINT = 1;
    static final int FLOAT = 2;
    static final int BOOL = 6;

    /** Names of the codes DLPack 1.3 defines, by code. */
    private static final String[] NAMES = {"kDLInt", "kDLUInt", "kDLFloat", "kDLOpaqueHandle", "kDLBfloat", "kDLComplex",
        "kDLBool", "kDLFloat8_e3m4", "kDLFloat8_e4m3", "kDLFloat8_e4m3b11fnuz", "kDLFloat8_e4m3fn", "kDLFloat8_e4m3fnuz",
        "kDLFloat8_e5m2", "kDLFloat8_e5m2fnuz", "kDLFloat8_e8m0fnu", "kDLFloat6_e2m3fn", "kDLFloat6_e3m2fn", "kDLFloat4_e2m1fn"};

    private DLDataTypes() {}

    /**
     * @param code  {@code dtype.code}, unsigned
     * @param bits  {@code dtype.bits}, unsigned
     * @param lanes {@code dtype.lanes}, unsigned
     * @param path  the dtype's field path, for messages
     * @return the element type
     * @throws InterchangeException   for a code DLPack does not define
     * @throws InterchangeException   for a defined type with no Arrow fixed-width equivalent
     */
    static ElementType element(int code, int bits, int lanes, String path) {
        if (code >= NAMES.length) {
            throw new InterchangeException(path + ".code", "unknown DLPack type code " + code + " (DLPack 1.3 defines 0 to " + (NAMES.length - 1) + ")");
        }
        String type = NAMES[code] + " bits=" + bits + " lanes=" + lanes;
        if (lanes != 1) {
            throw new InterchangeException(path + ".lanes", type + ": vector types (lanes != 1) have no Arrow fixed-width equivalent");
        }
        ElementType.Kind kind = switch (code) {
            case INT -> ElementType.Kind.SIGNED;
            case UINT -> ElementType.Kind.UNSIGNED;
            case FLOAT -> ElementType.Kind.FLOAT;
            case BOOL -> ElementType.Kind.BOOL;
            default -> throw new InterchangeException(path + ".code", type + " has no Arrow equivalent here (supported: kDLInt and "
                    + "kDLUInt of 8/16/32/64 bits, kDLFloat of 16/32/64 bits, kDLBool of 8 bits)");
        };
        if (bits % 8 != 0) {
            throw new InterchangeException(path + ".bits", type + ": sub-byte and odd widths are not supported");
        }
        try {
            return new ElementType(kind, bits / 8);
        } catch (IllegalArgumentException e) {
            throw new InterchangeException(path + ".bits", type + ": " + e.getMessage());
        }
    }

    /** @return the {@code dtype.code} of an element type */
    static int code(ElementType element) {
        return switch (element.kind()) {
            case SIGNED -> INT;
            case UNSIGNED -> UINT;
            case FLOAT -> FLOAT;
            case BOOL -> BOOL;
        };
    }
}
