package dev.quiver;

import dev.quiver.testkit.CLibrary;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C consumer of {@code consumer.c}: checks arrays Java exported, reads their values into checksums
 * and releases them.
 */
final class CConsumer {
    private static final CLibrary LIBRARY = CLibrary.fromResources(CConsumer.class, List.of("consumer.c"), List.of());
    private static final MethodHandle CHECK = LIBRARY.function("consumer_check", FunctionDescriptor.of(JAVA_INT,
            ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle CHECK_ARRAY = LIBRARY.function("consumer_check_array", FunctionDescriptor.of(JAVA_INT,
            ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle RELEASE = LIBRARY.function("consumer_release", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle RELEASE_ARRAY = LIBRARY.function("consumer_release_array", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle RELEASE_ON_THREAD = LIBRARY.function("consumer_release_on_thread", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle TAKE_CHILD = LIBRARY.function("consumer_take_child",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    private static final MethodHandle ALLOC = LIBRARY.function("consumer_alloc", FunctionDescriptor.of(ADDRESS, JAVA_LONG));
    private static final MethodHandle FREE = LIBRARY.function("consumer_free", FunctionDescriptor.ofVoid(ADDRESS));

    private CConsumer() {}

    /**
     * What the consumer read: its description of the schema tree ({@code name:format{children}}) and
     * checksums of the values.
     *
     * @param description the schema tree as the consumer saw it
     * @param sums        checksums of the values
     */
    record Result(String description, Sums sums) {}

    /**
     * Checksums of a tree of values, counted the same way in C and Java, depth first.
     *
     * @param values    non-null values at any level
     * @param nulls     nulls at any level (a null list or struct hides its elements)
     * @param intSum    sum of integers, modulo 2^64
     * @param trues     true booleans
     * @param bytes     bytes of strings and binaries
     * @param byteSum   sum of those bytes, unsigned
     * @param floatSum  sum of floating-point values, as doubles, in visiting order
     */
    record Sums(long values, long nulls, long intSum, long trues, long bytes, long byteSum, double floatSum) {

        /** @return the sums of values in the Java mapping of HostVector / ArrayReader */
        static Sums of(List<Object> values) {
            long[] c = new long[6];
            double[] f = new double[1];
            for (Object value : values) {
                add(value, c, f);
            }
            return new Sums(c[0], c[1], c[2], c[3], c[4], c[5], f[0]);
        }

        private static void add(Object value, long[] c, double[] f) {
            if (value == null) {
                c[1]++;
                return;
            }
            c[0]++;
            switch (value) {
                case Long v -> c[2] += v;
                case Boolean v -> c[3] += v ? 1 : 0;
                case Double v -> f[0] += v;
                case String v -> addBytes(v.getBytes(StandardCharsets.UTF_8), c);
                case ByteBuffer v -> {
                    byte[] bytes = new byte[v.remaining()];
                    v.duplicate().get(bytes);
                    addBytes(bytes, c);
                }
                case List<?> v -> v.forEach(e -> add(e, c, f));
                case Map<?, ?> v -> v.values().forEach(e -> add(e, c, f));
                default -> throw new AssertionError("not a value of the Java mapping: " + value.getClass());
            }
        }

        private static void addBytes(byte[] bytes, long[] c) {
            c[4] += bytes.length;
            for (byte b : bytes) {
                c[5] += b & 0xff;
            }
        }
    }

    /** @return how consumer.c describes the schema tree of {@code field} */
    static String describe(Field field) {
        String children = field.children().isEmpty() ? ""
                : field.children().stream().map(CConsumer::describe).collect(Collectors.joining(",", "{", "}"));
        return field.name() + ":" + field.type().format() + children;
    }

    /** Checks an exported ArrowDeviceArray and reads it; fails the test with the consumer's reason. */
    static Result check(MemorySegment deviceArray, MemorySegment schema, int deviceType) {
        return read((counts, floatSum, desc, err) -> (int) CHECK.invokeExact(deviceArray, schema, deviceType,
                counts, floatSum, desc, desc.byteSize(), err, err.byteSize()));
    }

    /** Checks an ArrowArray (for example a child moved out) and reads it. */
    static Result checkArray(MemorySegment array, MemorySegment schema) {
        return read((counts, floatSum, desc, err) -> (int) CHECK_ARRAY.invokeExact(array, schema,
                counts, floatSum, desc, desc.byteSize(), err, err.byteSize()));
    }

    private interface Call {
        int run(MemorySegment counts, MemorySegment floatSum, MemorySegment desc, MemorySegment err) throws Throwable;
    }

    private static Result read(Call call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment counts = arena.allocate(JAVA_LONG, 6);
            MemorySegment floatSum = arena.allocate(JAVA_DOUBLE);
            MemorySegment desc = arena.allocate(4096);
            MemorySegment err = arena.allocate(1024);
            int rc = call.run(counts, floatSum, desc, err);
            if (rc != 0) {
                throw new AssertionError("C consumer rejected the export: " + err.getString(0));
            }
            long[] c = counts.toArray(JAVA_LONG);
            return new Result(desc.getString(0), new Sums(c[0], c[1], c[2], c[3], c[4], c[5], floatSum.get(JAVA_DOUBLE, 0)));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Calls both release callbacks from C; returns 0 if both were live and are released now. */
    static int release(MemorySegment deviceArray, MemorySegment schema) {
        try {
            return (int) RELEASE.invokeExact(deviceArray, schema);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Like {@link #release} for an ArrowArray and its schema (either may be NULL). */
    static int releaseArray(MemorySegment array, MemorySegment schema) {
        try {
            return (int) RELEASE_ARRAY.invokeExact(array, schema);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Like {@link #release}, from a new native thread. */
    static int releaseOnNativeThread(MemorySegment deviceArray, MemorySegment schema) {
        try {
            return (int) RELEASE_ON_THREAD.invokeExact(deviceArray, schema);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Moves child {@code i} of the top-level array and schema into the given structs. */
    static int takeChild(MemorySegment deviceArray, MemorySegment schema, long i, MemorySegment child, MemorySegment childSchema) {
        try {
            return (int) TAKE_CHILD.invokeExact(deviceArray, schema, i, child, childSchema);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** @return {@code size} bytes of C heap memory, filled with 0xA5 */
    static MemorySegment alloc(long size) {
        try {
            MemorySegment p = (MemorySegment) ALLOC.invokeExact(size);
            if (p.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("consumer_alloc(" + size + ")");
            }
            return p.reinterpret(size);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static void free(MemorySegment p) {
        try {
            FREE.invokeExact(p);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
