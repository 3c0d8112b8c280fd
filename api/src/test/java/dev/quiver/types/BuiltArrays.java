package dev.quiver.types;

import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Nested arrays built through {@link ArrayBuilder#of(Field, Device)} from buffers uploaded to a device, with children
 * and a dictionary that are themselves built from buffers: a struct, a list with an offset, and a
 * dictionary-encoded array. On devices with events the top-level array carries an event recorded after
 * every upload (children and dictionary included); elsewhere the uploads are synchronised first.
 * Each kind comes with the values it must read as.
 */
public enum BuiltArrays {
    /** {@code s: struct<a: int32, b: utf8>} with a null row and a null member. */
    STRUCT(Arrays.asList(row(1L, "x"), null, row(null, "zz"))) {
        @Override
        DeviceArray build(Uploads up) {
            Field a = Field.of("a", new ArrowType.Int(32, true), true);
            Field b = Field.of("b", new ArrowType.Utf8(), false);
            DeviceArray first = ArrayBuilder.of(a, up.device).length(3).nullCount(1)
                    .buffer(up.bytes(0b011)).buffer(up.ints(1, 2, 0)).build();
            DeviceArray second = ArrayBuilder.of(b, up.device).length(3).nullCount(0)
                    .absentBuffer().buffer(up.ints(0, 1, 1, 3)).buffer(up.bytes('x', 'z', 'z')).build();
            Field s = Field.struct("s", true, List.of(a, b));
            return up.finish(ArrayBuilder.of(s, up.device).length(3).nullCount(1).buffer(up.bytes(0b101))
                    .child(first).child(second));
        }
    },
    /** {@code l: list<int64>} of four lists, offset 1: rows 1..3 are read. */
    LIST(List.of(List.of(), List.of(12L, 13L, 14L), List.of(15L))) {
        @Override
        DeviceArray build(Uploads up) {
            Field item = Field.of("item", new ArrowType.Int(64, true), false);
            DeviceArray items = ArrayBuilder.of(item, up.device).length(6).nullCount(0)
                    .absentBuffer().buffer(up.longs(10, 11, 12, 13, 14, 15)).build();
            return up.finish(ArrayBuilder.of(Field.list("l", false, item), up.device).length(3).offset(1).nullCount(0)
                    .absentBuffer().buffer(up.ints(0, 2, 2, 5, 6)).child(items));
        }
    },
    /** {@code d: int16} indices into a utf8 dictionary of three words, one index null. */
    DICTIONARY(Arrays.asList("blue", "red", null, "green")) {
        @Override
        DeviceArray build(Uploads up) {
            Field words = Field.of("values", new ArrowType.Utf8(), false);
            DeviceArray dictionary = ArrayBuilder.of(words, up.device).length(3).nullCount(0).absentBuffer()
                    .buffer(up.ints(0, 3, 8, 12)).buffer(up.bytes("redgreenblue".chars().toArray())).build();
            Field d = Field.of("d", new ArrowType.Int(16, true), true).withDictionary(new Field.DictionaryEncoding(words, false));
            return up.finish(ArrayBuilder.of(d, up.device).length(4).nullCount(1)
                    .buffer(up.bytes(0b1011)).buffer(up.shorts(2, 0, 0, 1)).dictionary(dictionary));
        }
    };

    private final List<Object> values;

    BuiltArrays(List<Object> values) {
        this.values = values;
    }

    /** @return the values the built array reads as, in the Java mapping of {@code ArrayReader} */
    public List<Object> expected() {
        return values;
    }

    /**
     * @param device where to upload and build
     * @return the built array, owned by the caller
     */
    public DeviceArray on(Device device) {
        try (Uploads up = new Uploads(device)) {
            return build(up);
        }
    }

    abstract DeviceArray build(Uploads up);

    private static Map<String, Object> row(Long a, String b) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("a", a);
        row.put("b", b);
        return row;
    }

    /** Buffers allocated on a device and filled from the host on one stream; the host staging lives until close. */
    static final class Uploads implements AutoCloseable {
        final Device device;
        private final DeviceStream stream;
        private final Arena staging = Arena.ofConfined();

        Uploads(Device device) {
            this.device = device;
            this.stream = device.createStream();
        }

        DeviceBuffer bytes(int... values) {
            return upload(values.length, (s, i) -> s.set(JAVA_BYTE, i, (byte) values[(int) i]), 1);
        }

        DeviceBuffer shorts(int... values) {
            return upload(values.length, (s, i) -> s.setAtIndex(JAVA_SHORT, i, (short) values[(int) i]), 2);
        }

        DeviceBuffer ints(int... values) {
            return upload(values.length, (s, i) -> s.setAtIndex(JAVA_INT, i, values[(int) i]), 4);
        }

        DeviceBuffer longs(long... values) {
            return upload(values.length, (s, i) -> s.setAtIndex(JAVA_LONG, i, values[(int) i]), 8);
        }

        private interface Put {
            void at(MemorySegment segment, long index);
        }

        private DeviceBuffer upload(int count, Put put, int width) {
            MemorySegment host = staging.allocate((long) count * width, 8);
            for (long i = 0; i < count; i++) {
                put.at(host, i);
            }
            DeviceBuffer buffer = device.allocate(host.byteSize());
            buffer.copyFromHost(host, 0, stream);
            return buffer;
        }

        /** Gives the top-level builder an event after every upload, or waits for them where there are no events. */
        DeviceArray finish(ArrayBuilder builder) {
            if (device.type().eventType().isPresent()) {
                builder.syncEvent(stream.recordEvent());
            } else {
                stream.synchronize();
            }
            return builder.build();
        }

        @Override
        public void close() {
            stream.synchronize();
            stream.close();
            staging.close();
        }
    }
}
