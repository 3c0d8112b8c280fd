package dev.quiver.internal.tensor;

import dev.quiver.type.Field;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The shape a one-dimensional Arrow array has as a tensor. Arrow arrays are flat; an imported tensor of
 * another rank keeps its shape in the field metadata under {@link #METADATA_KEY} (extents separated by
 * commas, empty for rank 0), so that exporting it again restores the shape.
 */
public final class TensorShapes {
    /** Field metadata key holding the tensor shape of an imported tensor whose rank is not 1. */
    public static final String METADATA_KEY = "quiver.tensor.shape";

    private TensorShapes() {}

    /**
     * @param shape extents
     * @return the metadata that records {@code shape}: empty for rank 1, where the Arrow length says it all
     */
    public static Map<String, String> metadata(long[] shape) {
        if (shape.length == 1) {
            return Map.of();
        }
        return Map.of(METADATA_KEY, Arrays.stream(shape).mapToObj(Long::toString).collect(Collectors.joining(",")));
    }

    /**
     * @param field     the array's field, whose metadata may record a shape
     * @param length    the array's length
     * @param requested the shape the caller asked for, or null
     * @return {@code requested} if given, else the shape recorded in the field metadata, else {@code [length]}
     * @throws IllegalArgumentException if the shape has a negative extent or does not hold exactly
     *                                  {@code length} elements
     */
    public static long[] of(Field field, long length, long[] requested) {
        long[] shape;
        String recorded = field.metadata().get(METADATA_KEY).orElse(null);
        if (requested != null) {
            shape = requested.clone();
        } else if (recorded != null) {
            shape = parse(recorded);
        } else {
            return new long[] {length};
        }
        long count = 1;
        for (long extent : shape) {
            if (extent < 0) {
                throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has a negative extent");
            }
            count = Math.multiplyExact(count, extent);
        }
        if (count != length) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " holds " + count
                    + " elements but the array has " + length + (requested == null ? " (shape from field metadata " + METADATA_KEY + ")" : ""));
        }
        return shape;
    }

    private static long[] parse(String recorded) {
        if (recorded.isEmpty()) {
            return new long[0];
        }
        try {
            return Arrays.stream(recorded.split(",")).mapToLong(s -> Long.parseLong(s.trim())).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("field metadata " + METADATA_KEY + " is not a list of extents: \"" + recorded + "\"", e);
        }
    }
}
