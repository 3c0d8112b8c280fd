package dev.quiver.cai;

import dev.quiver.InterchangeException;
import dev.quiver.internal.tensor.ElementType;
import dev.quiver.internal.tensor.StridedView;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * A checked CUDA Array Interface descriptor.
 *
 * @param element  the element type
 * @param view     shape and byte strides
 * @param pointer  the data address ({@code data[0]})
 * @param readOnly {@code data[1]}
 * @param mask     the mask descriptor, or null
 * @param stream   the {@code stream} value, or null for {@code None}
 */
record Descriptor(ElementType element, StridedView view, long pointer, boolean readOnly, Map<?, ?> mask, Long stream) {
    /** The versions whose keys this reader understands (version 2 has no {@code stream}). */
    static final List<Integer> VERSIONS = List.of(2, 3);

    /**
     * @param map  the descriptor
     * @param path the prefix of its key paths ({@code ""}, or {@code "mask."})
     * @return the checked descriptor
     * @throws InterchangeException or {@link InterchangeException} naming the key
     */
    static Descriptor read(Map<?, ?> map, String path) {
        if (map == null) {
            throw new InterchangeException(path.isEmpty() ? "descriptor" : path.substring(0, path.length() - 1), "is null");
        }
        long version = integer(required(map, "version", path), path + "version");
        if (!VERSIONS.contains((int) version) || version != (int) version) {
            throw new InterchangeException(path + "version", "is " + version + "; this consumer reads versions 2 and 3");
        }
        Object typestr = required(map, "typestr", path);
        if (!(typestr instanceof String text)) {
            throw new InterchangeException(path + "typestr", "is a " + typeName(typestr) + ", not a string");
        }
        ElementType element = TypeStrings.parse(text, path + "typestr");
        long[] shape = integers(required(map, "shape", path), path + "shape");
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] < 0) {
                throw new InterchangeException(path + "shape[" + i + "]", "is negative (" + shape[i] + ")");
            }
        }
        Object data = required(map, "data", path);
        if (!(data instanceof List<?> pair) || pair.size() != 2) {
            throw new InterchangeException(path + "data", "must be a (pointer, readonly) pair, not " + data);
        }
        long pointer = integer(pair.get(0), path + "data[0]");
        if (!(pair.get(1) instanceof Boolean readOnly)) {
            throw new InterchangeException(path + "data[1]", "is a " + typeName(pair.get(1)) + ", not a boolean (readonly)");
        }
        Object stridesValue = map.get("strides");
        long[] strides = stridesValue == null ? null : integers(stridesValue, path + "strides");
        if (strides != null && strides.length != shape.length) {
            throw new InterchangeException(path + "strides", "has " + strides.length + " entries for " + shape.length + " dimensions");
        }
        Object mask = map.get("mask");
        if (mask != null && !(mask instanceof Map<?, ?>)) {
            throw new InterchangeException(path + "mask", "is a " + typeName(mask) + ", not a descriptor (a map) or null");
        }
        Object streamValue = version >= 3 ? map.get("stream") : null;
        Long stream = streamValue == null ? null : integer(streamValue, path + "stream");
        return new Descriptor(element, StridedView.of(element.byteSize(), shape, strides), pointer, readOnly, (Map<?, ?>) mask, stream);
    }

    private static Object required(Map<?, ?> map, String key, String path) {
        Object value = map.get(key);
        if (value == null) {
            throw new InterchangeException(path + key, "is missing; the interface requires it");
        }
        return value;
    }

    private static long integer(Object value, String path) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger big && big.signum() >= 0 && big.bitLength() <= 64) {
            return big.longValue();
        }
        throw new InterchangeException(path, "is " + (value == null ? "null" : "a " + typeName(value) + " (" + value + ")") + ", not an integer");
    }

    private static long[] integers(Object value, String path) {
        if (!(value instanceof List<?> list)) {
            throw new InterchangeException(path, "is a " + typeName(value) + ", not a list (tuple) of integers");
        }
        long[] out = new long[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = integer(list.get(i), path + "[" + i + "]");
        }
        return out;
    }

    private static String typeName(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName();
    }
}
