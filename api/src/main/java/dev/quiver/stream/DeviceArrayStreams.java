package dev.quiver.stream;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Exports Java sources of device arrays as {@code struct ArrowDeviceArrayStream} (the pull-style C device
 * stream) for C consumers. To consume a C stream in Java, see {@link DeviceArrayStream#importFrom}.
 *
 * <p><b>Ownership.</b> After an export, the consumer owns the stream struct and must call its
 * {@code release} exactly once; that closes the source (the {@link Iterator} if it is
 * {@link AutoCloseable}, the {@link Stream} through {@link Stream#close()}). Every array that
 * {@code get_next} hands out is moved to the consumer, which releases it independently: arrays outlive
 * the stream. The schema from {@code get_schema} is a new ArrowSchema each time, owned by the consumer.
 *
 * <p><b>Threading.</b> The callbacks may be called from any thread, one at a time as the specification
 * demands. The source is pulled only from inside {@code get_next}, never concurrently. A call made while
 * another runs is refused with {@link Errno#EBUSY} (and {@code get_last_error} says why); a
 * {@code release} that arrives while a call runs takes effect when that call returns; a call on a released
 * stream returns {@link Errno#EINVAL}. No misuse crashes the process.
 *
 * <p><b>Errors.</b> What the source throws becomes an {@code errno} code (its own for a
 * {@link StreamException}; EINVAL for {@link IllegalArgumentException}; ENOMEM for
 * {@link OutOfMemoryError}; ENOSYS for {@link UnsupportedOperationException}; EIO otherwise) and a
 * message for {@code get_last_error}. An array on another device type than the stream's, or of another
 * type than the schema, is closed (released once) and fails {@code get_next} with EINVAL. Errors are
 * sticky: later {@code get_next} calls return the same code. The end of the stream is a released array
 * ({@code release == NULL}); later calls return the end again.
 *
 * {@snippet class=dev.quiver.snippets.StreamSnippets region=export}
 */
public final class DeviceArrayStreams {
    private DeviceArrayStreams() {}

    /**
     * Exports an iterator. It is called only from inside {@code get_next}; each array it returns is moved
     * to the consumer.
     *
     * @param source     the arrays, in order; never null elements
     * @param schema     the schema of every array
     * @param deviceType the device type of every array
     * @param out        48 writable bytes for a {@code struct ArrowDeviceArrayStream}
     */
    public static void exportTo(Iterator<? extends DeviceArray> source, Field schema, DeviceType deviceType, MemorySegment out) {
        export(ArraySource.of(source), schema, deviceType, out);
    }

    /**
     * Exports an iterator as a plain {@code struct ArrowArrayStream} of the Arrow C stream interface, for
     * consumers that speak no C Device interface (DuckDB's {@code duckdb_arrow_scan}, PyArrow's
     * {@code RecordBatchReader._import_from_c}). The same rules hold as for {@link #exportTo}: the source is
     * pulled only from inside {@code get_next}, each array moves to the consumer, errors become {@code errno}
     * codes with a message, and the consumer's {@code release} closes the source (an {@link AutoCloseable}
     * iterator, a {@link DeviceArrayStream}). An array not in CPU memory is copied to the host (and closed) or
     * refused ({@code get_next} fails with EINVAL naming its device), as {@code policy} says.
     *
     * @param source the arrays, in order; never null elements
     * @param schema the schema of every array
     * @param out    40 writable bytes for a {@code struct ArrowArrayStream}
     * @param policy what to do with arrays not in CPU memory
     */
    public static void exportPlain(Iterator<? extends DeviceArray> source, Field schema, MemorySegment out,
                                   dev.quiver.abi.PlainExport policy) {
        PlainStreamExport.export(source, schema, out, policy);
    }

    /**
     * Exports a {@link Stream}, pulled lazily through its iterator and closed when the consumer releases
     * the C stream.
     *
     * @param source     the arrays, in order
     * @param schema     the schema of every array
     * @param deviceType the device type of every array
     * @param out        48 writable bytes for a {@code struct ArrowDeviceArrayStream}
     */
    public static void exportTo(Stream<? extends DeviceArray> source, Field schema, DeviceType deviceType, MemorySegment out) {
        export(ArraySource.of(source), schema, deviceType, out);
    }

    /**
     * Exports a supplier, called once per {@code get_next} until it returns null (the end of the stream).
     *
     * @param source     returns the next array, or null at the end
     * @param schema     the schema of every array
     * @param deviceType the device type of every array
     * @param out        48 writable bytes for a {@code struct ArrowDeviceArrayStream}
     */
    public static void exportTo(Supplier<? extends DeviceArray> source, Field schema, DeviceType deviceType, MemorySegment out) {
        export(ArraySource.of(source), schema, deviceType, out);
    }

    private static void export(ArraySource source, Field schema, DeviceType deviceType, MemorySegment out) {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(deviceType, "deviceType");
        if (out.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("out is NULL");
        }
        PullStreamExport.export(source, schema, deviceType, out);
    }
}
