package dev.quiver.internal.validate;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.ReadableRanges;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.function.BiFunction;
import java.util.function.ToLongFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * Full validation of a structurally valid array in host memory: reads the data. Offsets non-negative,
 * ascending and within their target, valid UTF-8, null counts matching the validity bitmap, union type ids
 * declared and dense offsets in range, dictionary indices in range, run ends strictly increasing and
 * covering the array, views within their variadic buffers with matching prefixes, list views within their
 * child, decimals within their precision, no null map entry or key (a null_count of -1 is counted from the
 * bitmap, never read as "no nulls"). When the caller knows the true size of buffers ({@code capacity}), every implied size is checked
 * against it before anything is read. Errors name the field path and the rule.
 */
public final class FullValidator {
    /** Offsets checked for a decrease at once, without a branch per offset. */
    private static final long OFFSETS_BLOCK = 1024;

    private final ToLongFunction<MemorySegment> capacity;
    /** What may be read, asked before every range is read; null where ranges are not checked. */
    private final ReadableRanges reads;
    private final BiFunction<String, String, ? extends RuntimeException> invalid;

    /** Whether decimals are checked against their precision, not only their bit width. */
    private final boolean decimalPrecision;

    private FullValidator(ToLongFunction<MemorySegment> capacity, ReadableRanges reads, boolean decimalPrecision,
                          BiFunction<String, String, ? extends RuntimeException> invalid) {
        this.capacity = capacity;
        this.reads = reads;
        this.decimalPrecision = decimalPrecision;
        this.invalid = invalid;
    }

    /**
     * @param array    a structurally valid ArrowArray in host memory
     * @param field    its field
     * @param capacity the size in bytes of the buffer at a pointer, or -1 if unknown (then the sizes the
     *                 struct implies are trusted)
     * @param invalid  makes the exception for the first fault from its field path and rule
     */
    public static void validate(MemorySegment array, Field field, ToLongFunction<MemorySegment> capacity,
                                BiFunction<String, String, ? extends RuntimeException> invalid) {
        validate(array, field, capacity, null, true, invalid);
    }

    /**
     * @param array         a structurally valid ArrowArray in host memory
     * @param field         its field
     * @param capacity      the size in bytes of the buffer at a pointer, or -1 if unknown
     * @param reads         what may be read, asked before every range is read (the sink of an untrusted
     *                      import's checks, whose confirmed pages are then not asked about again); null to
     *                      read without asking
     * @param decimalPrecision whether a decimal whose unscaled value has more digits than its precision is refused
     *                         (else only the bit width bounds it)
     * @param invalid       makes the exception for the first fault from its field path and rule
     */
    public static void validate(MemorySegment array, Field field, ToLongFunction<MemorySegment> capacity, ReadableRanges reads,
                                boolean decimalPrecision, BiFunction<String, String, ? extends RuntimeException> invalid) {
        new FullValidator(capacity, reads, decimalPrecision, invalid).node(Pointers.struct(array, ArrowArrayLayout.LAYOUT), field, "");
    }

    private void node(MemorySegment array, Field field, String path) {
        long length = array.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        long offset = array.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        long nullCount = array.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT);
        long end = offset + length;
        ArrowType type = field.type();
        BufferLayout layout = BufferLayout.of(type);
        Node node = new Node(array, path);
        MemorySegment validity = MemorySegment.NULL;
        if (layout.hasValidity()) {
            validity = node.buffer(0, layout.buffers().getFirst().bytesFor(end), true);
            if (!validity.equals(MemorySegment.NULL) && nullCount >= 0) {
                long zeros = (end - offset) - Bits.countSet(validity, offset, end);
                if (zeros != nullCount) {
                    throw invalid.apply(Paths.join(path, "null_count"), "is " + nullCount + " but the validity bitmap has " + zeros + " nulls");
                }
            }
        }
        for (int i = 0; i < layout.bufferCount(); i++) {
            BufferLayout.Buffer buffer = layout.buffers().get(i);
            if (buffer.kind() == BufferLayout.Kind.FIXED || buffer.kind() == BufferLayout.Kind.BITS) {
                node.buffer(i, buffer.bytesFor(end), length == 0);
            }
        }
        if (field.dictionary() != null) {
            dictionary(node, field, offset, end);
            return;
        }
        switch (type) {
            case ArrowType.Binary t -> variable(node, offset, end, 32, false);
            case ArrowType.LargeBinary t -> variable(node, offset, end, 64, false);
            case ArrowType.Utf8 t -> variable(node, offset, end, 32, true);
            case ArrowType.LargeUtf8 t -> variable(node, offset, end, 64, true);
            case ArrowType.BinaryView t -> views(node, offset, end, false);
            case ArrowType.Utf8View t -> views(node, offset, end, true);
            case ArrowType.ListType t -> list(node, field, offset, end, 32);
            case ArrowType.LargeList t -> list(node, field, offset, end, 64);
            case ArrowType.MapType t -> {
                list(node, field, offset, end, 32);
                mapEntries(node, field);
            }
            case ArrowType.ListView t -> listView(node, field, offset, end, 32);
            case ArrowType.LargeListView t -> listView(node, field, offset, end, 64);
            case ArrowType.Union t -> union(node, field, t, offset, end);
            case ArrowType.RunEndEncoded t -> runEnds(node, field, end);
            case ArrowType.Decimal t -> decimals(node, t, validity, offset, end);
            case ArrowType.Null _, ArrowType.Bool _, ArrowType.Int _, ArrowType.FloatingPoint _,
                 ArrowType.FixedSizeBinary _, ArrowType.Date _, ArrowType.Time _, ArrowType.Timestamp _, ArrowType.Duration _,
                 ArrowType.Interval _, ArrowType.FixedSizeList _, ArrowType.Struct _ -> {
                // fixed-width, boolean, null, struct, fixed-size list: no offsets or contents to check beyond
                // the sizes checked above
            }
        }
        for (int k = 0; k < field.children().size(); k++) {
            node(node.child(k), field.children().get(k), Paths.index(path, "children", k));
        }
    }

    private void decimals(Node node, ArrowType.Decimal type, MemorySegment validity, long offset, long end) {
        if (end == offset || !decimalPrecision) {
            return;
        }
        MemorySegment data = node.buffer(1, end * (type.bitWidth() / 8), false);
        long slot = DecimalPrecision.firstOutOfRange(type, data, validity, offset, end);
        if (slot >= 0) {
            throw invalid.apply(Paths.index(node.path, "buffers", 1), "value " + (slot - offset) + " (unscaled "
                    + DecimalPrecision.value(type, data, slot) + ") does not fit in precision " + type.precision()
                    + (type.bitWidth() == 128 && type.precision() == 38 && type.scale() == 0
                    ? " (128-bit integers exported as decimal(38, 0), as DuckDB exports HUGEINT and UHUGEINT, have values of 39 "
                    + "digits; ImportOptions.decimalPrecision(false) takes in every value that fits 128 bits)"
                    : " (ImportOptions.decimalPrecision(false) takes in every value that fits the type's bit width)"));
        }
    }

    private void variable(Node node, long offset, long end, int bits, boolean utf8) {
        if (end == offset && node.pointer(1).equals(MemorySegment.NULL)) {
            return;
        }
        MemorySegment offsets = node.buffer(1, (end + 1) * (bits / 8), false);
        long last = ascending(node, offsets, offset, end, bits, 1);
        MemorySegment data = node.buffer(2, last, last == 0);
        if (!utf8 || end == offset) {
            return;
        }
        // well formed as a whole from the first offset to the last, and no value starts inside a character
        // (which only multi-byte characters have)
        String path = Paths.index(node.path, "buffers", 2);
        long bad = Utf8Scan.check(data, read(offsets, offset, bits), last);
        if (bad == Utf8Scan.ASCII) {
            return;
        }
        if (bad >= 0) {
            throw invalid.apply(path, "value " + Utf8Scan.valueHolding(k -> read(offsets, k, bits), offset, end, bad) + " is not valid UTF-8 (byte "
                    + bad + " of the data)");
        }
        long inside = bits == 32 ? Utf8Scan.firstStartInside32(offsets, offset + 1, end, data, last)
                : Utf8Scan.firstStartInside64(offsets, offset + 1, end, data, last);
        if (inside >= 0) {
            throw invalid.apply(path, "value " + inside + " is not valid UTF-8: it starts inside a character (byte "
                    + read(offsets, inside, bits) + " of the data)");
        }
    }

    /**
     * Checks the offsets {@code [offset, end]} are non-negative and ascending, a block at a time without a
     * branch per offset (the differences' signs are or-ed), looking for the exact place only in a block that
     * holds a decrease.
     *
     * @return the last offset
     */
    private long ascending(Node node, MemorySegment offsets, long offset, long end, int bits, int buffer) {
        long previous = read(offsets, offset, bits);
        if (previous < 0) {
            throw invalid.apply(Paths.index(node.path, "buffers", buffer), "offset[" + offset + "] is negative (" + previous + ")");
        }
        for (long from = offset; from < end; from += OFFSETS_BLOCK) {
            long to = Math.min(end, from + OFFSETS_BLOCK);
            long signs = bits == 32 ? decreases32(offsets, from, to) : decreases64(offsets, from, to);
            if (signs < 0) {
                for (long i = from + 1; i <= to; i++) {
                    long before = read(offsets, i - 1, bits);
                    long current = read(offsets, i, bits);
                    if (current < before) {
                        throw invalid.apply(Paths.index(node.path, "buffers", buffer),
                                "offsets decrease at " + i + " (" + before + " then " + current + ")");
                    }
                }
            }
        }
        return read(offsets, end, bits);
    }

    /** @return a negative value if some offset in {@code (from, to]} is below the one before it */
    private static long decreases32(MemorySegment offsets, long from, long to) {
        long signs = 0;
        long previous = offsets.get(JAVA_INT_UNALIGNED, from * 4);
        for (long i = from + 1; i <= to; i++) {
            long current = offsets.get(JAVA_INT_UNALIGNED, i * 4);
            signs |= current - previous;
            previous = current;
        }
        return signs;
    }

    /** @return a negative value if some offset in {@code (from, to]} is below the one before it */
    private static long decreases64(MemorySegment offsets, long from, long to) {
        long signs = 0;
        long previous = offsets.get(JAVA_LONG_UNALIGNED, from * 8);
        for (long i = from + 1; i <= to; i++) {
            long current = offsets.get(JAVA_LONG_UNALIGNED, i * 8);
            // compared, not subtracted: a hostile 64-bit difference can overflow to a positive value
            signs |= current < previous ? -1 : 0;
            previous = current;
        }
        return signs;
    }

    private void views(Node node, long offset, long end, boolean utf8) {
        long nBuffers = node.array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        int variadic = (int) (nBuffers - 3);
        MemorySegment sizes = node.buffer((int) nBuffers - 1, variadic * 8L, variadic == 0);
        long[] sizeOf = new long[variadic];
        MemorySegment[] data = new MemorySegment[variadic];
        for (int k = 0; k < variadic; k++) {
            sizeOf[k] = sizes.get(JAVA_LONG_UNALIGNED, k * 8L);
            if (sizeOf[k] < 0) {
                throw invalid.apply(Paths.index(node.path, "buffers", nBuffers - 1), "variadic buffer " + k + " has negative size " + sizeOf[k]);
            }
            data[k] = node.buffer(2 + k, sizeOf[k], sizeOf[k] == 0);
        }
        MemorySegment views = node.buffer(1, end * 16, end == 0);
        MemorySegment validity = node.pointer(0);
        MemorySegment bits = validity.equals(MemorySegment.NULL) ? null : Pointers.bytes(validity, (end + 7) / 8);
        String viewsPath = Paths.index(node.path, "buffers", 1);
        for (long i = offset; i < end; i++) {
            if (bits != null && !bit(bits, i)) {
                continue;
            }
            long view = i * 16;
            int size = views.get(JAVA_INT_UNALIGNED, view);
            if (size < 0) {
                throw invalid.apply(viewsPath, "view " + i + " has negative length " + size);
            }
            if (size <= 12) {
                if (utf8 && Utf8Scan.firstMalformed(views, view + 4, view + 4 + size) >= 0) {
                    throw invalid.apply(viewsPath, "value " + i + " is not valid UTF-8");
                }
                continue;
            }
            int index = views.get(JAVA_INT_UNALIGNED, view + 8);
            long start = views.get(JAVA_INT_UNALIGNED, view + 12);
            if (index < 0 || index >= variadic) {
                throw invalid.apply(viewsPath, "view " + i + " names buffer " + index + " of " + variadic + " variadic buffers");
            }
            if (start < 0 || start + size > sizeOf[index]) {
                throw invalid.apply(viewsPath, "view " + i + " addresses bytes " + start + ".." + (start + size)
                        + " of variadic buffer " + index + " which has " + sizeOf[index]);
            }
            for (int b = 0; b < 4; b++) {
                if (views.get(JAVA_BYTE, view + 4 + b) != data[index].get(JAVA_BYTE, start + b)) {
                    throw invalid.apply(viewsPath, "view " + i + " prefix differs from its data");
                }
            }
            if (utf8 && Utf8Scan.firstMalformed(data[index], start, start + size) >= 0) {
                throw invalid.apply(Paths.index(node.path, "buffers", 2 + index), "value " + i + " is not valid UTF-8");
            }
        }
    }

    private void list(Node node, Field field, long offset, long end, int bits) {
        if (end == offset && node.pointer(1).equals(MemorySegment.NULL)) {
            return;
        }
        MemorySegment offsets = node.buffer(1, (end + 1) * (bits / 8), false);
        long last = ascending(node, offsets, offset, end, bits, 1);
        long childLength = node.child(0).get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        if (last > childLength) {
            throw invalid.apply(Paths.index(node.path, "buffers", 1), "last offset " + last + " is past the end of the "
                    + field.children().getFirst().name() + " child (length " + childLength + ")");
        }
    }

    /** Neither a map's entries nor its keys may be null, as Arrow C++ checks over each child's whole length. */
    private void mapEntries(Node node, Field field) {
        Field entriesField = field.children().getFirst();
        Node entries = new Node(node.child(0), Paths.index(node.path, "children", 0));
        noNulls(entries, entriesField, "map entries must not be null");
        noNulls(new Node(entries.child(0), Paths.index(entries.path, "children", 0)), entriesField.children().getFirst(),
                "map keys must not be null");
    }

    /**
     * Refuses a child with a null. A null_count of -1 is "not computed", never "none": then the validity
     * bitmap is counted (a null_count of 0 is checked against the bitmap when the child is validated).
     */
    private void noNulls(Node node, Field field, String rule) {
        long nullCount = node.array.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT);
        if (nullCount > 0) {
            throw invalid.apply(Paths.join(node.path, "null_count"), rule + ": null_count is " + nullCount);
        }
        long length = node.array.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        if (nullCount == 0 || length == 0) {
            return;
        }
        if (field.type() instanceof ArrowType.Null) {
            throw invalid.apply(Paths.join(node.path, "null_count"), rule + ": null_count is -1 and every value of a null array is null");
        }
        if (!BufferLayout.of(field.type()).hasValidity()) {
            return;
        }
        long offset = node.array.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        MemorySegment bitmap = node.buffer(0, (offset + length + 7) / 8, true);
        long nulls = bitmap.equals(MemorySegment.NULL) ? 0 : length - Bits.countSet(bitmap, offset, offset + length);
        if (nulls > 0) {
            throw invalid.apply(Paths.index(node.path, "buffers", 0), rule + ": null_count is -1 and the validity bitmap has "
                    + nulls + " nulls");
        }
    }

    private void listView(Node node, Field field, long offset, long end, int bits) {
        MemorySegment offsets = node.buffer(1, end * (bits / 8), end == 0);
        MemorySegment sizes = node.buffer(2, end * (bits / 8), end == 0);
        MemorySegment validity = node.pointer(0);
        MemorySegment valid = validity.equals(MemorySegment.NULL) ? null : Pointers.bytes(validity, (end + 7) / 8);
        long childLength = node.child(0).get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        for (long i = offset; i < end; i++) {
            if (valid != null && !bit(valid, i)) {
                continue;
            }
            long start = read(offsets, i, bits);
            long size = bits == 32 ? sizes.get(JAVA_INT_UNALIGNED, i * 4) : sizes.get(JAVA_LONG_UNALIGNED, i * 8);
            if (size < 0) {
                throw invalid.apply(Paths.index(node.path, "buffers", 2), "list view " + i + " has negative size " + size);
            }
            if (start < 0 || start > childLength - size) {
                throw invalid.apply(Paths.index(node.path, "buffers", 1), "list view " + i + " (offset " + start + ", size "
                        + size + ") is outside its child of length " + childLength);
            }
        }
    }

    private void union(Node node, Field field, ArrowType.Union type, long offset, long end) {
        MemorySegment typeIds = node.buffer(0, end, end == 0);
        MemorySegment offsets = type.mode() == ArrowType.UnionMode.DENSE ? node.buffer(1, end * 4, end == 0) : null;
        for (long i = offset; i < end; i++) {
            int id = typeIds.get(JAVA_BYTE, i);
            int k = type.typeIds().indexOf(id);
            if (k < 0) {
                throw invalid.apply(Paths.index(node.path, "buffers", 0), "slot " + i + " has type id " + id
                        + ", not one of " + type.typeIds());
            }
            if (offsets != null) {
                long at = offsets.get(JAVA_INT_UNALIGNED, i * 4);
                long childLength = node.child(k).get(JAVA_LONG, ArrowArrayLayout.LENGTH);
                if (at < 0 || at >= childLength) {
                    throw invalid.apply(Paths.index(node.path, "buffers", 1), "slot " + i + " offset " + at
                            + " is outside child " + k + " (length " + childLength + ")");
                }
            }
        }
    }

    private void runEnds(Node node, Field field, long end) {
        MemorySegment runEnds = node.child(0);
        ArrowType.Int width = (ArrowType.Int) field.children().getFirst().type();
        long runs = runEnds.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        long runOffset = runEnds.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        Node ends = new Node(runEnds, Paths.index(node.path, "children", 0));
        MemorySegment values = ends.buffer(1, (runOffset + runs) * (width.bitWidth() / 8), runs == 0);
        long previous = 0;
        for (long r = runOffset; r < runOffset + runs; r++) {
            long current = switch (width.bitWidth()) {
                case 16 -> values.get(JAVA_SHORT_UNALIGNED, r * 2);
                case 32 -> values.get(JAVA_INT_UNALIGNED, r * 4);
                default -> values.get(JAVA_LONG_UNALIGNED, r * 8);
            };
            if (current <= previous) {
                throw invalid.apply(Paths.index(ends.path, "buffers", 1), "run ends must be positive and strictly increasing: "
                        + previous + " then " + current + " at run " + r);
            }
            previous = current;
        }
        if (previous < end) {
            throw invalid.apply(Paths.index(ends.path, "buffers", 1), "the last run ends at " + previous
                    + " but the array covers " + end + " logical slots");
        }
    }

    private void dictionary(Node node, Field field, long offset, long end) {
        MemorySegment dictionary = Pointers.struct(node.array.get(ADDRESS, ArrowArrayLayout.DICTIONARY), ArrowArrayLayout.LAYOUT);
        long size = dictionary.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        ArrowType.Int index = (ArrowType.Int) field.type();
        MemorySegment indices = node.buffer(1, end * (index.bitWidth() / 8), end == 0);
        MemorySegment validity = node.pointer(0);
        MemorySegment bits = validity.equals(MemorySegment.NULL) ? null : Pointers.bytes(validity, (end + 7) / 8);
        for (long i = offset; i < end; i++) {
            if (bits != null && !bit(bits, i)) {
                continue;
            }
            long value = switch (index.bitWidth()) {
                case 8 -> index.signed() ? indices.get(JAVA_BYTE, i) : Byte.toUnsignedLong(indices.get(JAVA_BYTE, i));
                case 16 -> index.signed() ? indices.get(JAVA_SHORT_UNALIGNED, i * 2) : Short.toUnsignedLong(indices.get(JAVA_SHORT_UNALIGNED, i * 2));
                case 32 -> index.signed() ? indices.get(JAVA_INT_UNALIGNED, i * 4) : Integer.toUnsignedLong(indices.get(JAVA_INT_UNALIGNED, i * 4));
                default -> indices.get(JAVA_LONG_UNALIGNED, i * 8);
            };
            if (value < 0 || value >= size) {
                // an unsigned 64-bit index past 2^63 - 1 reads as negative: it is named as it is stored
                String named = index.signed() ? Long.toString(value) : Long.toUnsignedString(value);
                throw invalid.apply(Paths.index(node.path, "buffers", 1), "index " + named + " at slot " + i
                        + " is outside the dictionary of " + size + " values");
            }
        }
        node(dictionary, field.dictionary().values(), Paths.join(node.path, "dictionary"));
    }

    private static long read(MemorySegment offsets, long index, int bits) {
        return bits == 32 ? offsets.get(JAVA_INT_UNALIGNED, index * 4) : offsets.get(JAVA_LONG_UNALIGNED, index * 8);
    }

    private static boolean bit(MemorySegment bits, long index) {
        return (bits.get(JAVA_BYTE, index >>> 3) & (1 << (index & 7))) != 0;
    }

    /** One array node: its buffers, sized and bounds-checked on access. */
    private final class Node {
        final MemorySegment array;
        final String path;

        Node(MemorySegment array, String path) {
            this.array = array;
            this.path = path;
        }

        MemorySegment pointer(int i) {
            long n = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
            return Pointers.pointers(array.get(ADDRESS, ArrowArrayLayout.BUFFERS), n).getAtIndex(ADDRESS, i);
        }

        /** Buffer {@code i} as a segment of {@code bytes}, after checking it exists and is that large. */
        MemorySegment buffer(int i, long bytes, boolean mayBeNull) {
            MemorySegment pointer = pointer(i);
            if (pointer.equals(MemorySegment.NULL)) {
                if (bytes > 0 && !mayBeNull) {
                    throw invalid.apply(Paths.index(path, "buffers", i), "is NULL but " + bytes + " bytes are addressed");
                }
                return pointer;
            }
            long known = capacity.applyAsLong(pointer);
            if (known >= 0 && bytes > known) {
                throw invalid.apply(Paths.index(path, "buffers", i), "the array addresses " + bytes
                        + " bytes but the buffer holds " + known);
            }
            if (reads != null && !reads.canRead(pointer.address(), bytes)) {
                throw invalid.apply(Paths.index(path, "buffers", i), "the array addresses " + bytes + " bytes at 0x"
                        + Long.toHexString(pointer.address()) + ", which are not all readable host memory");
            }
            return Pointers.bytes(pointer, bytes);
        }

        MemorySegment child(int k) {
            long n = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
            return Pointers.struct(Pointers.pointers(array.get(ADDRESS, ArrowArrayLayout.CHILDREN), n).getAtIndex(ADDRESS, k), ArrowArrayLayout.LAYOUT);
        }
    }
}
