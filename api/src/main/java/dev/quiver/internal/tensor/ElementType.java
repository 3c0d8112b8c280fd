package dev.quiver.internal.tensor;

import dev.quiver.type.ArrowType;

import java.util.Optional;

/**
 * A fixed-width element as tensor protocols (DLPack, the CUDA Array Interface) see it: a kind and a byte
 * size. Booleans are one byte per element here, unlike Arrow's bit-packed booleans. Immutable.
 *
 * @param kind     what the bits mean
 * @param byteSize bytes per element: 1, 2, 4 or 8
 */
public record ElementType(Kind kind, int byteSize) {

    /** What the bits of an element mean. */
    public enum Kind {
        /** Two's complement integer. */
        SIGNED,
        /** Unsigned integer. */
        UNSIGNED,
        /** IEEE 754 binary floating point (half, single, double). */
        FLOAT,
        /** One byte per value, zero for false. */
        BOOL
    }

    /** Checks the size against the kind. */
    public ElementType {
        boolean valid = switch (kind) {
            case SIGNED, UNSIGNED -> byteSize == 1 || byteSize == 2 || byteSize == 4 || byteSize == 8;
            case FLOAT -> byteSize == 2 || byteSize == 4 || byteSize == 8;
            case BOOL -> byteSize == 1;
        };
        if (!valid) {
            throw new IllegalArgumentException(kind + " elements of " + byteSize + " bytes are not supported");
        }
    }

    /**
     * @param type an Arrow type
     * @return its tensor element type, if it is a fixed-width primitive (integers, floats, booleans); other
     *         types, including ones added to {@link ArrowType} later, are empty
     */
    public static Optional<ElementType> of(ArrowType type) {
        if (type instanceof ArrowType.Int i) {
            return Optional.of(new ElementType(i.signed() ? Kind.SIGNED : Kind.UNSIGNED, i.bitWidth() / 8));
        }
        if (type instanceof ArrowType.FloatingPoint f) {
            return Optional.of(new ElementType(Kind.FLOAT, f.bitWidth() / 8));
        }
        if (type instanceof ArrowType.Bool) {
            return Optional.of(new ElementType(Kind.BOOL, 1));
        }
        return Optional.empty();
    }

    /** @return the Arrow type of these elements (booleans become Arrow's bit-packed booleans) */
    public ArrowType arrowType() {
        return switch (kind) {
            case SIGNED -> ArrowType.integer(byteSize * 8, true);
            case UNSIGNED -> ArrowType.integer(byteSize * 8, false);
            case FLOAT -> ArrowType.floatingPoint(byteSize * 8);
            case BOOL -> ArrowType.bool();
        };
    }

    /** @return true if Arrow lays these elements out differently (booleans: bits instead of bytes) */
    public boolean differsFromArrowLayout() {
        return kind == Kind.BOOL;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + (byteSize * 8);
    }
}
