package dev.quiver.arrowjava;

import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * An Arrow Java {@link ArrowReader} as a CPU {@code struct ArrowDeviceArrayStream} (for C consumers) or as a
 * Quiver {@link DeviceArrayStream}. Each batch the reader loads is exported zero-copy as a struct array (see
 * {@link VectorExport}), dictionaries from the reader itself; the stream's schema is the reader's.
 *
 * <p><b>Ownership.</b> The stream takes the reader: releasing the C stream (or closing the
 * DeviceArrayStream) closes the reader. Each array the stream hands out holds its own references to the
 * batch's buffers, so it stays valid after the reader loads the next batch or is closed; the consumer
 * releases it independently. The {@code allocator} pays for the export structures of every batch and must
 * stay open until the stream and every array it handed out are released. If the export itself fails, the
 * reader is still the caller's.
 *
 * <p><b>Threading.</b> The reader is used only from inside the stream's callbacks, which Quiver serializes
 * (see {@link DeviceArrayStream#exportTo}); they may come from any thread, so the reader must not be used by anyone
 * else once exported.
 */
public final class StreamExport {
    private StreamExport() {}

    /**
     * Exports a reader as a C stream of CPU arrays.
     *
     * @param reader    the reader; owned by the stream from now on
     * @param allocator pays for the export structures until every array is released
     * @param out       48 writable bytes for a {@code struct ArrowDeviceArrayStream}; the consumer releases it
     * @throws UncheckedIOException if the reader cannot give its schema; the reader is still the caller's
     */
    public static void exportTo(ArrowReader reader, BufferAllocator allocator, MemorySegment out) {
        exportTo(reader, allocator, out, false);
    }

    /**
     * Exports a reader of data from outside the process (an Arrow IPC file or stream) as a C stream of CPU
     * arrays, each validated as untrusted input before it is handed out
     * ({@link VectorExport#toValidatedDeviceArray}): a batch whose offsets, lengths, views or dictionary indexes
     * run past the buffers the reader read, or whose UTF-8 is invalid, fails the stream's {@code get_next}
     * with the field path, and nothing of it is kept.
     *
     * @param reader    the reader; owned by the stream from now on
     * @param allocator pays for the export structures until every array is released
     * @param out       48 writable bytes for a {@code struct ArrowDeviceArrayStream}; the consumer releases it
     * @throws UncheckedIOException if the reader cannot give its schema; the reader is still the caller's
     */
    public static void exportValidatedTo(ArrowReader reader, BufferAllocator allocator, MemorySegment out) {
        exportTo(reader, allocator, out, true);
    }

    private static void exportTo(ArrowReader reader, BufferAllocator allocator, MemorySegment out, boolean validated) {
        Objects.requireNonNull(out, "out");
        Field schema = schemaOf(reader, allocator);
        DeviceArrayStream.of(schema, DeviceType.CPU, new ReaderBatches(reader, allocator, Devices.system(), validated)).exportTo(out);
    }

    private static Field schemaOf(ArrowReader reader, BufferAllocator allocator) {
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(allocator, "allocator");
        try {
            return ArrowJavaSchemas.quiverField(reader.getVectorSchemaRoot(), reader, allocator);
        } catch (IOException e) {
            throw new UncheckedIOException("ArrowReader could not give its schema: " + e.getMessage(), e);
        }
    }

    /**
     * Turns a reader into a Quiver stream of CPU arrays, in this JVM ({@link DeviceArrayStream#of}: no C struct in
     * between).
     *
     * @param reader    the reader; owned by the stream from now on
     * @param allocator pays for the export structures until every array is released
     * @return the stream, owned by the caller
     * @throws UncheckedIOException if the reader cannot give its schema; the reader is still the caller's
     */
    public static DeviceArrayStream toDeviceArrayStream(ArrowReader reader, BufferAllocator allocator) {
        return toDeviceArrayStream(reader, allocator, false);
    }

    /**
     * Turns a reader of data from outside the process into a Quiver stream of CPU arrays, each validated as
     * untrusted input ({@link #exportValidatedTo}); a batch that breaks the format fails {@code hasNext()} with
     * an {@link dev.quiver.InvalidArrowException} naming the field path as the cause.
     *
     * @param reader    the reader; owned by the stream from now on
     * @param allocator pays for the export structures until every array is released
     * @return the stream, owned by the caller
     * @throws UncheckedIOException if the reader cannot give its schema; the reader is still the caller's
     */
    public static DeviceArrayStream toValidatedDeviceArrayStream(ArrowReader reader, BufferAllocator allocator) {
        return toDeviceArrayStream(reader, allocator, true);
    }

    private static DeviceArrayStream toDeviceArrayStream(ArrowReader reader, BufferAllocator allocator, boolean validated) {
        Field schema = schemaOf(reader, allocator);
        return DeviceArrayStream.of(schema, DeviceType.CPU, new ReaderBatches(reader, allocator, Devices.system(), validated));
    }
}
