package dev.quiver.host;

import dev.quiver.Interchange;
import dev.quiver.BackendSelection;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.testkit.CLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The C consumer of {@code host_values.c}: a vector is turned into a CPU device array, exported, read by C
 * at logical indexes (one child of a struct, with the struct's offset applied, when asked) and released by
 * C. Every call checks that everything exported was released.
 */
final class CValues {
    /** No backends: arrays stay on the CPU. */
    static final Devices NONE = Devices.cpuOnly();

    private static final CLibrary LIBRARY = CLibrary.fromResources(CValues.class, "host_values.c");
    private static final MethodHandle FIXED = LIBRARY.function("host_fixed_values", FunctionDescriptor.of(JAVA_LONG,
            ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle BINARY = LIBRARY.function("host_binary_values", FunctionDescriptor.of(JAVA_LONG,
            ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));

    private CValues() {}

    /**
     * What C read from a fixed-width array.
     *
     * @param values the stored bytes of each value, back to back (one byte per boolean)
     * @param valid  the validity of each value
     */
    record Fixed(byte[] values, boolean[] valid) {
        /** @return the values as little-endian longs */
        long[] longs() {
            long[] out = new long[values.length / 8];
            ByteBuffer.wrap(values).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out);
            return out;
        }

        /** @return the values as little-endian ints */
        int[] ints() {
            int[] out = new int[values.length / 4];
            ByteBuffer.wrap(values).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
            return out;
        }

        /** @return the values as little-endian shorts */
        short[] shorts() {
            short[] out = new short[values.length / 2];
            ByteBuffer.wrap(values).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(out);
            return out;
        }

        /** @return the values as little-endian doubles */
        double[] doubles() {
            double[] out = new double[values.length / 8];
            ByteBuffer.wrap(values).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out);
            return out;
        }

        /** @return the values as little-endian floats */
        float[] floats() {
            float[] out = new float[values.length / 4];
            ByteBuffer.wrap(values).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
            return out;
        }

        /** @return one boolean per byte */
        boolean[] booleans() {
            boolean[] out = new boolean[values.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = values[i] != 0;
            }
            return out;
        }
    }

    /**
     * Exports {@code vector} and has C read it.
     *
     * @param child     -1 for the vector itself, else the index of the struct member to read
     * @param format    the format string C must find
     * @param byteWidth bytes per value, 0 for bit-packed booleans
     */
    static Fixed fixed(HostVector vector, int child, String format, int byteWidth) {
        int length = Math.toIntExact(vector.length());
        return call(arena -> {
            MemorySegment values = arena.allocate(Math.max(1, (long) length * Math.max(byteWidth, 1)));
            MemorySegment valid = arena.allocate(Math.max(1, length));
            return new Call(values, valid, (array, schema, err) -> (long) FIXED.invokeExact(array, schema, (long) child,
                    arena.allocateFrom(format), (long) byteWidth, values, valid, (long) length, err, err.byteSize()));
        }, vector, (call, n) -> {
            assertEquals(length, n, "values C read");
            byte[] flags = call.second().asSlice(0, n).toArray(JAVA_BYTE);
            boolean[] valid = new boolean[(int) n];
            for (int i = 0; i < n; i++) {
                valid[i] = flags[i] != 0;
            }
            return new Fixed(call.first().asSlice(0, n * Math.max(byteWidth, 1)).toArray(JAVA_BYTE), valid);
        });
    }

    /**
     * Exports a binary or utf8 {@code vector} and has C read it.
     *
     * @param child       -1 for the vector itself, else the index of the struct member to read
     * @param format      the format string C must find
     * @param offsetWidth 4, or 8 for the large variants
     * @return each value's bytes, null for null
     */
    static List<byte[]> binary(HostVector vector, int child, String format, int offsetWidth, long dataBytes) {
        int length = Math.toIntExact(vector.length());
        return call(arena -> {
            MemorySegment bytes = arena.allocate(Math.max(1, dataBytes));
            MemorySegment lengths = arena.allocate(JAVA_LONG, Math.max(1, length));
            return new Call(bytes, lengths, (array, schema, err) -> (long) BINARY.invokeExact(array, schema, (long) child,
                    arena.allocateFrom(format), (long) offsetWidth, bytes, bytes.byteSize(), lengths, (long) length, err, err.byteSize()));
        }, vector, (call, n) -> {
            assertEquals(length, n, "values C read");
            List<byte[]> out = new ArrayList<>();
            long at = 0;
            for (long i = 0; i < n; i++) {
                long size = call.second().getAtIndex(JAVA_LONG, i);
                out.add(size < 0 ? null : call.first().asSlice(at, size).toArray(JAVA_BYTE));
                at += Math.max(size, 0);
            }
            return out;
        });
    }

    /** @return {@code bytes[from .. from + count - 1]} split at {@code offsets}: the expected values, nulls as null */
    static List<byte[]> split(byte[] data, long[] offsets, boolean[] valid) {
        List<byte[]> out = new ArrayList<>();
        for (int k = 0; k + 1 < offsets.length; k++) {
            out.add(valid != null && !valid[k] ? null : Arrays.copyOfRange(data, (int) offsets[k], (int) offsets[k + 1]));
        }
        return out;
    }

    private interface Consumer {
        long run(MemorySegment array, MemorySegment schema, MemorySegment err) throws Throwable;
    }

    private record Call(MemorySegment first, MemorySegment second, Consumer consumer) {}

    private interface Setup {
        Call make(Arena arena);
    }

    private interface Result<T> {
        T read(Call call, long n);
    }

    private static <T> T call(Setup setup, HostVector vector, Result<T> result) {
        long exports = Diagnostics.liveExports();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            MemorySegment err = arena.allocate(512);
            Call call = setup.make(arena);
            Interchange.exportDevice(vector.toDeviceArray(NONE), array, schema);
            long n;
            try {
                n = call.consumer().run(array, schema, err);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            if (n < 0) {
                throw new AssertionError("C rejected the export: " + err.getString(0));
            }
            T out = result.read(call, n);
            assertEquals(exports, Diagnostics.liveExports(), "C released everything exported");
            return out;
        }
    }
}
