package dev.quiver.host;

import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Encodes Java values (the {@link HostVector} mapping) into Arrow buffers, for every type. Stateless.
 */
final class HostEncoder {
    /** View data is split into variadic buffers of about this many bytes. */
    static final int VIEW_BUFFER_BYTES = 1024;

    private HostEncoder() {}

    /**
     * One encoded array: heap buffers in C order ({@link MemorySegment#NULL} = absent), children, dictionary.
     * Its buffers are never written after it is made.
     */
    record Node(long length, long nullCount, List<MemorySegment> buffers, List<Node> children, Node dictionary) implements ArrayMemory {
        Node {
            buffers = List.copyOf(buffers);
            children = List.copyOf(children);
        }

        @Override
        public long offset() {
            return 0;
        }

        @Override
        public int bufferCount() {
            return buffers.size();
        }

        @Override
        public MemorySegment buffer(int i, long bytes) {
            return buffers.get(i);
        }

        @Override
        public int childCount() {
            return children.size();
        }

        @Override
        public ArrayMemory child(int k) {
            return children.get(k);
        }
    }

    /** @return the heap segment of {@code bytes}, or {@link MemorySegment#NULL} for null */
    static MemorySegment heap(byte[] bytes) {
        return bytes == null ? MemorySegment.NULL : MemorySegment.ofArray(bytes);
    }

    /** @return the segments of {@code buffers}, null ones as {@link MemorySegment#NULL} */
    private static List<MemorySegment> heapBuffers(byte[]... buffers) {
        List<MemorySegment> out = new ArrayList<>(buffers.length);
        for (byte[] b : buffers) {
            out.add(heap(b));
        }
        return out;
    }

    static Node encode(Field field, List<?> values) {
        if (field.dictionary() != null) {
            return dictionary(field, values);
        }
        ArrowType type = field.type();
        int n = values.size();
        return switch (type) {
            case ArrowType.Null t -> {
                for (Object v : values) {
                    if (v != null) {
                        throw new IllegalArgumentException("a null array holds only nulls, got " + v);
                    }
                }
                yield new Node(n, n, List.of(), List.of(), null);
            }
            case ArrowType.Bool t -> {
                boolean[] bits = new boolean[n];
                for (int i = 0; i < n; i++) {
                    bits[i] = values.get(i) != null && (Boolean) values.get(i);
                }
                yield leaf(values, Bitmaps.pack(bits, n));
            }
            case ArrowType.Int t -> fixed(values, (out, v) -> out.integer(((Number) v).longValue(), t.bitWidth()), t.bitWidth());
            case ArrowType.FloatingPoint t -> fixed(values, (out, v) -> {
                double d = ((Number) v).doubleValue();
                switch (t.bitWidth()) {
                    case 16 -> out.int16(Float.floatToFloat16((float) d));
                    case 32 -> out.int32(Float.floatToRawIntBits((float) d));
                    default -> out.int64(Double.doubleToRawLongBits(d));
                }
            }, t.bitWidth());
            case ArrowType.Decimal t -> fixed(values, (out, v) -> out.bytes(Decimals.encode(t, (BigDecimal) v)), t.bitWidth());
            case ArrowType.FixedSizeBinary t -> fixed(values, (out, v) -> {
                byte[] b = bytes(v);
                if (b.length != t.byteWidth()) {
                    throw new IllegalArgumentException("w:" + t.byteWidth() + " value has " + b.length + " bytes");
                }
                out.bytes(b);
            }, t.byteWidth() * 8);
            case ArrowType.Binary t -> variable(values, 32);
            case ArrowType.Utf8 t -> variable(values, 32);
            case ArrowType.LargeBinary t -> variable(values, 64);
            case ArrowType.LargeUtf8 t -> variable(values, 64);
            case ArrowType.BinaryView t -> views(values);
            case ArrowType.Utf8View t -> views(values);
            case ArrowType.Date t -> fixed(values, (out, v) -> out.integer(((Number) v).longValue(),
                    t.unit() == ArrowType.DateUnit.DAY ? 32 : 64), t.unit() == ArrowType.DateUnit.DAY ? 32 : 64);
            case ArrowType.Time t -> fixed(values, (out, v) -> out.integer(((Number) v).longValue(), t.bitWidth()), t.bitWidth());
            case ArrowType.Timestamp t -> fixed(values, (out, v) -> out.int64(((Number) v).longValue()), 64);
            case ArrowType.Duration t -> fixed(values, (out, v) -> out.int64(((Number) v).longValue()), 64);
            case ArrowType.Interval t -> fixed(values, (out, v) -> {
                switch (t.unit()) {
                    case YEAR_MONTH -> out.int32(((Number) v).intValue());
                    case DAY_TIME -> {
                        IntervalDayTime dt = (IntervalDayTime) v;
                        out.int32(dt.days());
                        out.int32(dt.milliseconds());
                    }
                    case MONTH_DAY_NANO -> {
                        IntervalMonthDayNano m = (IntervalMonthDayNano) v;
                        out.int32(m.months());
                        out.int32(m.days());
                        out.int64(m.nanoseconds());
                    }
                }
            }, t.unit().bitWidth());
            case ArrowType.ListType t -> list(field, values, 32);
            case ArrowType.LargeList t -> list(field, values, 64);
            case ArrowType.MapType t -> map(field, values);
            case ArrowType.FixedSizeList t -> fixedSizeList(field, t.listSize(), values);
            case ArrowType.ListView t -> listView(field, values, 32);
            case ArrowType.LargeListView t -> listView(field, values, 64);
            case ArrowType.Struct t -> struct(field, values);
            case ArrowType.Union t -> union(field, t, values);
            case ArrowType.RunEndEncoded t -> runEnds(field, values);
        };
    }

    private interface Writer {
        void write(Bytes out, Object value);
    }

    private static Node fixed(List<?> values, Writer writer, int bitWidth) {
        Bytes out = new Bytes();
        byte[] zero = new byte[bitWidth / 8];
        for (Object v : values) {
            if (v == null) {
                out.bytes(zero);
            } else {
                writer.write(out, v);
            }
        }
        return leaf(values, out.toArray());
    }

    private static Node leaf(List<?> values, byte[]... data) {
        byte[][] buffers = new byte[data.length + 1][];
        buffers[0] = validity(values);
        System.arraycopy(data, 0, buffers, 1, data.length);
        return new Node(values.size(), nulls(values), heapBuffers(buffers), List.of(), null);
    }

    private static Node variable(List<?> values, int offsetBits) {
        Bytes offsets = new Bytes();
        Bytes data = new Bytes();
        offsets.integer(0, offsetBits);
        for (Object v : values) {
            if (v != null) {
                data.bytes(bytes(v));
            }
            offsets.integer(data.size(), offsetBits);
        }
        return leaf(values, offsets.toArray(), data.toArray());
    }

    private static Node views(List<?> values) {
        Bytes views = new Bytes();
        List<byte[]> buffers = new ArrayList<>();
        Bytes current = new Bytes();
        for (Object v : values) {
            byte[] b = v == null ? new byte[0] : bytes(v);
            views.int32(b.length);
            if (b.length <= 12) {
                byte[] inline = new byte[12];
                System.arraycopy(b, 0, inline, 0, b.length);
                views.bytes(inline);
                continue;
            }
            if (current.size() > 0 && current.size() + b.length > VIEW_BUFFER_BYTES) {
                buffers.add(current.toArray());
                current = new Bytes();
            }
            views.bytes(java.util.Arrays.copyOf(b, 4));
            views.int32(buffers.size());
            views.int32(current.size());
            current.bytes(b);
        }
        if (current.size() > 0) {
            buffers.add(current.toArray());
        }
        byte[][] all = new byte[3 + buffers.size()][];
        all[0] = validity(values);
        all[1] = views.toArray();
        Bytes sizes = new Bytes();
        for (int k = 0; k < buffers.size(); k++) {
            all[2 + k] = buffers.get(k);
            sizes.int64(buffers.get(k).length);
        }
        all[all.length - 1] = sizes.toArray();
        return new Node(values.size(), nulls(values), heapBuffers(all), List.of(), null);
    }

    private static Node list(Field field, List<?> values, int offsetBits) {
        Bytes offsets = new Bytes();
        List<Object> elements = new ArrayList<>();
        offsets.integer(0, offsetBits);
        for (Object v : values) {
            if (v != null) {
                elements.addAll((List<?>) v);
            }
            offsets.integer(elements.size(), offsetBits);
        }
        Node child = encode(field.children().getFirst(), elements);
        return new Node(values.size(), nulls(values), heapBuffers(validity(values), offsets.toArray()), List.of(child), null);
    }

    private static Node map(Field field, List<?> values) {
        Bytes offsets = new Bytes();
        List<Object> entries = new ArrayList<>();
        offsets.int32(0);
        for (Object v : values) {
            if (v != null) {
                for (Object e : (List<?>) v) {
                    Map.Entry<?, ?> entry = (Map.Entry<?, ?>) e;
                    Map<String, Object> member = new java.util.LinkedHashMap<>();
                    Field entryField = field.children().getFirst();
                    member.put(entryField.children().get(0).name(), entry.getKey());
                    member.put(entryField.children().get(1).name(), entry.getValue());
                    entries.add(member);
                }
            }
            offsets.int32(entries.size());
        }
        Node child = encode(field.children().getFirst(), entries);
        return new Node(values.size(), nulls(values), heapBuffers(validity(values), offsets.toArray()), List.of(child), null);
    }

    private static Node fixedSizeList(Field field, int size, List<?> values) {
        List<Object> elements = new ArrayList<>();
        for (Object v : values) {
            if (v == null) {
                elements.addAll(Collections.nCopies(size, null));
            } else {
                List<?> list = (List<?>) v;
                if (list.size() != size) {
                    throw new IllegalArgumentException("+w:" + size + " value has " + list.size() + " elements");
                }
                elements.addAll(list);
            }
        }
        Node child = encode(field.children().getFirst(), elements);
        return new Node(values.size(), nulls(values), heapBuffers(validity(values)), List.of(child), null);
    }

    /** Lays list views out back to front, so that offsets are not monotonic, as views allow. */
    private static Node listView(Field field, List<?> values, int bits) {
        List<Object> elements = new ArrayList<>();
        long[] offsets = new long[values.size()];
        long[] sizes = new long[values.size()];
        for (int i = values.size() - 1; i >= 0; i--) {
            Object v = values.get(i);
            List<?> list = v == null ? List.of() : (List<?>) v;
            offsets[i] = elements.size();
            sizes[i] = list.size();
            elements.addAll(list);
        }
        Bytes offsetBytes = new Bytes();
        Bytes sizeBytes = new Bytes();
        for (int i = 0; i < values.size(); i++) {
            offsetBytes.integer(offsets[i], bits);
            sizeBytes.integer(sizes[i], bits);
        }
        Node child = encode(field.children().getFirst(), elements);
        return new Node(values.size(), nulls(values), heapBuffers(validity(values), offsetBytes.toArray(), sizeBytes.toArray()),
                List.of(child), null);
    }

    private static Node struct(Field field, List<?> values) {
        List<Node> children = new ArrayList<>();
        for (int k = 0; k < field.children().size(); k++) {
            Field member = field.children().get(k);
            List<Object> memberValues = new ArrayList<>();
            for (Object v : values) {
                memberValues.add(v == null ? null : ((Map<?, ?>) v).get(member.name()));
            }
            children.add(encode(member, memberValues));
        }
        return new Node(values.size(), nulls(values), heapBuffers(validity(values)), children, null);
    }

    private static Node union(Field field, ArrowType.Union type, List<?> values) {
        int members = field.children().size();
        List<List<Object>> childValues = new ArrayList<>();
        for (int k = 0; k < members; k++) {
            childValues.add(new ArrayList<>());
        }
        Bytes typeIds = new Bytes();
        Bytes offsets = new Bytes();
        for (Object v : values) {
            if (v == null) {
                // A union has no validity: a slot under a null parent holds a null of its first member.
                v = new UnionValue(type.typeIds().getFirst(), null);
            }
            if (!(v instanceof UnionValue u)) {
                throw new IllegalArgumentException("union slots are UnionValue(typeId, value), not " + v);
            }
            int k = type.typeIds().indexOf(u.typeId());
            if (k < 0) {
                throw new IllegalArgumentException("type id " + u.typeId() + " is not declared by " + type.format());
            }
            typeIds.int8(u.typeId());
            if (type.mode() == ArrowType.UnionMode.DENSE) {
                offsets.int32(childValues.get(k).size());
                childValues.get(k).add(u.value());
            } else {
                for (int j = 0; j < members; j++) {
                    childValues.get(j).add(j == k ? u.value() : null);
                }
            }
        }
        List<Node> children = new ArrayList<>();
        for (int k = 0; k < members; k++) {
            children.add(encode(field.children().get(k), childValues.get(k)));
        }
        List<MemorySegment> buffers = type.mode() == ArrowType.UnionMode.DENSE
                ? heapBuffers(typeIds.toArray(), offsets.toArray()) : heapBuffers(typeIds.toArray());
        return new Node(values.size(), 0, buffers, children, null);
    }

    private static Node runEnds(Field field, List<?> values) {
        List<Object> ends = new ArrayList<>();
        List<Object> runValues = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            if (i == 0 || !Objects.equals(values.get(i), values.get(i - 1))) {
                runValues.add(values.get(i));
                ends.add((long) i + 1);
            } else {
                ends.set(ends.size() - 1, (long) i + 1);
            }
        }
        Node runEnds = encode(field.children().get(0), ends);
        Node runs = encode(field.children().get(1), runValues);
        return new Node(values.size(), 0, List.of(), List.of(runEnds, runs), null);
    }

    private static Node dictionary(Field field, List<?> values) {
        Map<Object, Integer> index = new HashMap<>();
        List<Object> distinct = new ArrayList<>();
        List<Object> indices = new ArrayList<>();
        for (Object v : values) {
            if (v == null) {
                indices.add(null);
                continue;
            }
            indices.add((long) index.computeIfAbsent(v, k -> {
                distinct.add(k);
                return distinct.size() - 1;
            }));
        }
        Field indexField = new Field(field.name(), field.type(), field.nullable(), List.of(), field.metadata(), null);
        Node encoded = encode(indexField, indices);
        Node dictionary = encode(field.dictionary().values(), distinct);
        return new Node(encoded.length(), encoded.nullCount(), encoded.buffers(), List.of(), dictionary);
    }

    private static byte[] bytes(Object v) {
        return switch (v) {
            case String s -> s.getBytes(StandardCharsets.UTF_8);
            case byte[] b -> b;
            case ByteBuffer b -> {
                byte[] out = new byte[b.remaining()];
                b.duplicate().get(out);
                yield out;
            }
            default -> throw new IllegalArgumentException("expected String, byte[] or ByteBuffer, got " + v.getClass().getName());
        };
    }

    private static byte[] validity(List<?> values) {
        if (values.stream().noneMatch(Objects::isNull)) {
            return null;
        }
        boolean[] valid = new boolean[values.size()];
        for (int i = 0; i < valid.length; i++) {
            valid[i] = values.get(i) != null;
        }
        return Bitmaps.pack(valid, valid.length);
    }

    private static long nulls(List<?> values) {
        return values.stream().filter(Objects::isNull).count();
    }
}
