package dev.quiver.type;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Field metadata exactly as the C Data Interface encodes it: an ordered list of key/value byte strings,
 * duplicates and non-UTF-8 bytes preserved. Immutable; the byte arrays are copied in and out.
 */
public final class Metadata {
    /** No metadata (a NULL {@code metadata} pointer). */
    public static final Metadata EMPTY = new Metadata(List.of());
    /** The key naming an extension type. */
    public static final String EXTENSION_NAME = "ARROW:extension:name";
    /** The key holding an extension type's serialized metadata. */
    public static final String EXTENSION_METADATA = "ARROW:extension:metadata";

    private final List<Entry> entries;

    private Metadata(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * One key/value pair.
     *
     * @param key   key bytes (copied)
     * @param value value bytes (copied)
     */
    public record Entry(byte[] key, byte[] value) {
        /** Copies the arrays. */
        public Entry {
            key = key.clone();
            value = value.clone();
        }

        /** {@return a copy of the key bytes} */
        @Override
        public byte[] key() {
            return key.clone();
        }

        /** {@return a copy of the value bytes} */
        @Override
        public byte[] value() {
            return value.clone();
        }

        /** {@return the key decoded as UTF-8} */
        public String keyString() {
            return new String(key, StandardCharsets.UTF_8);
        }

        /** {@return the value decoded as UTF-8} */
        public String valueString() {
            return new String(value, StandardCharsets.UTF_8);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && Arrays.equals(key, e.key) && Arrays.equals(value, e.value);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return keyString() + "=" + valueString();
        }
    }

    /**
     * {@return metadata holding them}
     * @param entries pairs in encoded order
     */
    public static Metadata of(List<Entry> entries) {
        return entries.isEmpty() ? EMPTY : new Metadata(entries);
    }

    /**
     * {@return metadata holding them}
     * @param map UTF-8 keys and values, in the map's iteration order
     */
    public static Metadata of(Map<String, String> map) {
        List<Entry> entries = new ArrayList<>();
        map.forEach((k, v) -> entries.add(new Entry(k.getBytes(StandardCharsets.UTF_8), v.getBytes(StandardCharsets.UTF_8))));
        return of(entries);
    }

    /** {@return the pairs in encoded order} */
    public List<Entry> entries() {
        return entries;
    }

    /** {@return true if there are no pairs} */
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * {@return the value of its first occurrence, decoded as UTF-8}
     * @param key a UTF-8 key
     */
    public Optional<String> get(String key) {
        return entries.stream().filter(e -> e.keyString().equals(key)).findFirst().map(Entry::valueString);
    }

    /** {@return the pairs as UTF-8 strings; a later duplicate key overwrites an earlier one} */
    public Map<String, String> toMap() {
        Map<String, String> map = new LinkedHashMap<>();
        entries.forEach(e -> map.put(e.keyString(), e.valueString()));
        return map;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Metadata m && m.entries.equals(entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        return entries.toString();
    }
}
