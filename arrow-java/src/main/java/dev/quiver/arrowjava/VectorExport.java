package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.InvalidArrowException;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Arrow Java vectors to Quiver {@link DeviceArray}s on the CPU, zero-copy: Arrow Java's C Data module
 * ({@link Data#exportVector}, {@link Data#exportVectorSchemaRoot}) fills an {@code ArrowArray} embedded in an
 * {@code ArrowDeviceArray} that Quiver allocated ({@code device_type} CPU, {@code device_id} -1,
 * {@code sync_event} NULL, {@code reserved} zero), and {@link Interchange#importDevice} moves it in. The
 * buffer pointers of the result are the memory addresses of the vector's own {@code ArrowBuf}s.
 *
 * <p><b>Ownership.</b> The export takes a reference on every buffer it hands out, so the vector (or root)
 * and the DeviceArray are independent owners of the same memory: close the vector whenever you like; the
 * buffers live until the DeviceArray is closed (or, after {@link Interchange#exportDevice}, until its consumer
 * releases it). The {@code allocator} pays for the small structures of the export (child structs, buffer
 * pointer arrays) and is charged for them until the release: it must stay open until the DeviceArray is
 * closed, and it must be the allocator of the vector or one of its relatives (same root). Dictionaries are
 * exported from the {@link DictionaryProvider} with the same references, so the provider may be closed
 * after the call. Nothing is copied, so do not change the vector's contents while the DeviceArray is in
 * use: both see the same bytes.
 *
 * <p><b>Threading.</b> Call from one thread at a time per vector (Arrow Java vectors are not thread-safe).
 * The resulting DeviceArray follows Quiver's rules: it may be closed from any thread, and its release
 * (Arrow Java's, through JNI) runs exactly once on the thread that closes it.
 *
 * {@snippet class=dev.quiver.arrowjava.snippets.ArrowJavaSnippets region=export}
 */
public final class VectorExport {
    private VectorExport() {}

    /**
     * Exports a vector that is not dictionary-encoded (nor are its children).
     *
     * @param vector    the vector; stays owned by the caller
     * @param allocator pays for the export's structures until the DeviceArray is released
     * @return a CPU DeviceArray sharing the vector's buffers, owned by the caller
     * @throws IllegalArgumentException if a field of the vector is dictionary-encoded, or a union in it would
     *                                  export inconsistently (see {@link #toDeviceArray(FieldVector, DictionaryProvider,
     *                                  BufferAllocator, Devices)})
     */
    public static DeviceArray toDeviceArray(FieldVector vector, BufferAllocator allocator) {
        return toDeviceArray(vector, null, allocator, Devices.system());
    }

    /**
     * Exports a vector and the dictionaries its dictionary-encoded fields refer to.
     *
     * @param vector       the vector (for a dictionary-encoded field: the indices); stays owned by the caller
     * @param dictionaries where the dictionaries of encoded fields are found; may be null if there are none
     * @param allocator    pays for the export's structures until the DeviceArray is released
     * @return a CPU DeviceArray sharing the vector's buffers, owned by the caller
     * @throws IllegalArgumentException if a dictionary-encoded field's dictionary is not in {@code dictionaries}
     */
    public static DeviceArray toDeviceArray(FieldVector vector, DictionaryProvider dictionaries, BufferAllocator allocator) {
        return toDeviceArray(vector, dictionaries, allocator, Devices.system());
    }

    /**
     * Exports a vector as {@link #toDeviceArray(FieldVector, DictionaryProvider, BufferAllocator)} does, with
     * the device registry the DeviceArray uses for copies.
     *
     * @param vector       the vector; stays owned by the caller
     * @param dictionaries where the dictionaries of encoded fields are found; may be null if there are none
     * @param allocator    pays for the export's structures until the DeviceArray is released
     * @param devices      where the DeviceArray finds backends for {@link dev.quiver.Copies#toDevice}
     * @return a CPU DeviceArray sharing the vector's buffers, owned by the caller
     * @throws IllegalArgumentException if a dictionary-encoded field's dictionary is not in {@code dictionaries},
     *                                  or a union would reach the consumer inconsistent: Arrow Java exports a dense
     *                                  union whose type ids are not ascending with its members in two different
     *                                  orders, and a sparse union as if its type ids were its members' minor-type
     *                                  ordinals (refused if its type buffer holds others); nothing was exported
     */
    public static DeviceArray toDeviceArray(FieldVector vector, DictionaryProvider dictionaries, BufferAllocator allocator, Devices devices) {
        Objects.requireNonNull(vector, "vector");
        Objects.requireNonNull(allocator, "allocator");
        ExportChecks.exportable(vector, dictionaries);
        return export(devices, (array, schema) -> Data.exportVector(allocator, vector, dictionaries,
                CpuStructs.embeddedArray(array), CpuStructs.wrapSchema(schema)));
    }

    /**
     * Exports a vector schema root as a struct array (one child per vector, the schema's metadata on the
     * struct), with the root's row count as its length.
     *
     * @param root         the root; stays owned by the caller
     * @param dictionaries where the dictionaries of encoded fields are found; may be null if there are none
     * @param allocator    pays for the export's structures until the DeviceArray is released
     * @return a CPU DeviceArray of struct type sharing the root's buffers, owned by the caller
     * @throws IllegalArgumentException if a dictionary-encoded field's dictionary is not in {@code dictionaries}
     */
    public static DeviceArray toDeviceArray(VectorSchemaRoot root, DictionaryProvider dictionaries, BufferAllocator allocator) {
        return toDeviceArray(root, dictionaries, allocator, Devices.system());
    }

    /**
     * Exports a vector schema root as {@link #toDeviceArray(VectorSchemaRoot, DictionaryProvider,
     * BufferAllocator)} does, with the device registry the DeviceArray uses for copies.
     *
     * @param root         the root; stays owned by the caller
     * @param dictionaries where the dictionaries of encoded fields are found; may be null if there are none
     * @param allocator    pays for the export's structures until the DeviceArray is released
     * @param devices      where the DeviceArray finds backends for {@link dev.quiver.Copies#toDevice}
     * @return a CPU DeviceArray of struct type sharing the root's buffers, owned by the caller
     */
    public static DeviceArray toDeviceArray(VectorSchemaRoot root, DictionaryProvider dictionaries, BufferAllocator allocator, Devices devices) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(allocator, "allocator");
        root.getFieldVectors().forEach(vector -> ExportChecks.exportable(vector, dictionaries));
        return export(devices, (array, schema) -> Data.exportVectorSchemaRoot(allocator, root, dictionaries,
                CpuStructs.embeddedArray(array), CpuStructs.wrapSchema(schema)));
    }

    /**
     * Exports a root that Arrow Java read from outside the process (an IPC file or stream, a Flight message)
     * and validates it as untrusted input before handing it out. Arrow Java's reader sizes each buffer from
     * the message and the body that arrived, but the C Data interface carries no sizes, so an export alone
     * would let the batch's own offsets size its data buffers; here every size the batch implies is checked
     * against the buffer Arrow Java actually holds, before any byte is read, and then the data itself
     * ({@link Interchange#validateFull(dev.quiver.DeviceArray, java.util.function.ToLongFunction)}: offsets, UTF-8, views, union type
     * ids, dictionary indexes, run ends).
     *
     * @param root         the root as Arrow Java's reader loaded it; stays owned by the caller
     * @param dictionaries the dictionaries the reader loaded; may be null if there are none
     * @param allocator    pays for the export's structures until the DeviceArray is released
     * @param devices      where the DeviceArray finds backends for {@link dev.quiver.Copies#toDevice}
     * @return a CPU DeviceArray of struct type sharing the root's buffers, owned by the caller
     * @throws InvalidArrowException    naming the field path ({@code children[1].buffers[2]}) and the rule broken;
     *                                  nothing was kept
     * @throws IllegalArgumentException if Arrow Java cannot export the root (a dictionary it does not have)
     */
    public static DeviceArray toValidatedDeviceArray(VectorSchemaRoot root, DictionaryProvider dictionaries, BufferAllocator allocator, Devices devices) {
        ReadBuffers buffers = ReadBuffers.of(root, dictionaries);
        DeviceArray batch = toDeviceArray(root, dictionaries, allocator, devices);
        try {
            Interchange.validateFull(batch, buffers::capacity);
            return batch;
        } catch (RuntimeException | Error e) {
            batch.close();
            throw e;
        }
    }

    /** Fills a struct pair the way Arrow Java's {@code Data.export*} methods do. */
    private interface Exporter {
        void export(MemorySegment deviceArray, MemorySegment schema);
    }

    private static DeviceArray export(Devices devices, Exporter exporter) {
        Objects.requireNonNull(devices, "devices");
        try (Arena structs = Arena.ofConfined()) {
            MemorySegment deviceArray = CpuStructs.cpuDeviceArray(structs);
            MemorySegment schema = CpuStructs.schema(structs);
            try {
                exporter.export(deviceArray, schema);
            } catch (RuntimeException | Error e) {
                CpuStructs.releaseLive(deviceArray, schema, e);
                throw e;
            }
            return Interchange.importDevice(deviceArray, schema, ImportOptions.on(devices));
        }
    }
}
