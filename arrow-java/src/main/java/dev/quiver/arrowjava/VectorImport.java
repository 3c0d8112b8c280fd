package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Quiver {@link DeviceArray}s to Arrow Java vectors. A CPU array goes across without a copy: it is moved out
 * ({@link Interchange#exportDevice}) into structs that Arrow Java's C Data module imports
 * ({@link Data#importVector}, {@link Data#importVectorSchemaRoot}), so the vector's {@code ArrowBuf}s have
 * the memory addresses of the array's buffers. An array on another device is copied to the host first, but
 * only when the caller passes {@link DeviceCopy#COPY_TO_HOST}; it is never copied silently.
 *
 * <p><b>Ownership.</b> On success the DeviceArray is consumed: it is closed (moved out) and the returned
 * vector or root, owned by the caller, keeps the memory alive. Closing the vector (and every vector that
 * took its buffers by transfer or slice) calls the array's release callback exactly once. The
 * {@code allocator} is charged for the imported buffers until then, so it must stay open until the vector
 * is closed. A dictionary-encoded array's dictionaries go into the {@link CDataDictionaryProvider}, which then
 * owns them (close it when done); Arrow Java numbers imported dictionaries from 0 on every import, so give
 * each import a provider of its own.
 *
 * <p><b>Refusals.</b> These are refused before the handover, so nothing happens to the array (it stays open
 * and owned by the caller): an array not on the CPU, or a read-only one (Arrow Java vectors can be written
 * to), unless {@link DeviceCopy#COPY_TO_HOST} allows the copy; a non-zero {@code offset} anywhere in the tree,
 * which Arrow Java's importer ignores; a 32- or 64-bit decimal, which Arrow Java would read as a 128-bit one;
 * a dictionary-encoded field without a provider; a non-struct array where a root is asked for. If Arrow Java
 * rejects an array after the handover, the array's release has been called exactly once and it is closed.
 *
 * <p><b>Threading.</b> The import runs on the calling thread. The release callback runs on whichever thread
 * closes the last vector holding the memory; Quiver's callbacks may be called from any thread.
 *
 * {@snippet class=dev.quiver.arrowjava.snippets.ArrowJavaSnippets region=import}
 */
public final class VectorImport {
    private VectorImport() {}

    /**
     * Imports a CPU array into a new vector, refusing arrays on other devices.
     *
     * @param array        an open array on the CPU; consumed on success
     * @param allocator    charged for the imported buffers until the vector is closed
     * @param dictionaries receives the dictionaries of dictionary-encoded fields; may be null if there are none
     * @return a vector of the array's type sharing its buffers, owned by the caller
     * @throws IllegalArgumentException if the array cannot go to Arrow Java (see "Refusals" for its fate)
     * @throws dev.quiver.ReadOnlyArrayException if the array is read-only and no copy is allowed; it stays open
     */
    public static FieldVector toFieldVector(DeviceArray array, BufferAllocator allocator, CDataDictionaryProvider dictionaries) {
        return toFieldVector(array, allocator, dictionaries, DeviceCopy.REFUSE);
    }

    /**
     * Imports an array into a new vector, copying it to the host first if it is elsewhere and
     * {@code policy} allows it.
     *
     * @param array        an open array; consumed on success
     * @param allocator    charged for the imported buffers until the vector is closed
     * @param dictionaries receives the dictionaries of dictionary-encoded fields; may be null if there are none
     * @param policy       what to do if the array is not on the CPU
     * @return a vector of the array's type, owned by the caller
     * @throws IllegalArgumentException if the array cannot go to Arrow Java (see "Refusals" for its fate)
     * @throws dev.quiver.ReadOnlyArrayException if the array is read-only and no copy is allowed; it stays open
     */
    public static FieldVector toFieldVector(DeviceArray array, BufferAllocator allocator, CDataDictionaryProvider dictionaries,
                                            DeviceCopy policy) {
        Objects.requireNonNull(allocator, "allocator");
        return handOver(array, policy, dictionaries, Shape.VECTOR, (arrowArray, schema) ->
                Data.importVector(allocator, CpuStructs.embeddedArray(arrowArray), CpuStructs.wrapSchema(schema), dictionaries));
    }

    /**
     * Imports a CPU struct array into a new vector schema root (one vector per child, the struct's metadata
     * as the schema's), refusing arrays on other devices.
     *
     * @param array        an open struct array on the CPU; consumed on success
     * @param allocator    charged for the imported buffers until the root is closed
     * @param dictionaries receives the dictionaries of dictionary-encoded fields; may be null if there are none
     * @return a root with the array's length as row count, sharing its buffers, owned by the caller
     * @throws IllegalArgumentException if the array cannot go to Arrow Java (see "Refusals" for its fate)
     * @throws dev.quiver.ReadOnlyArrayException if the array is read-only and no copy is allowed; it stays open
     */
    public static VectorSchemaRoot toVectorSchemaRoot(DeviceArray array, BufferAllocator allocator, CDataDictionaryProvider dictionaries) {
        return toVectorSchemaRoot(array, allocator, dictionaries, DeviceCopy.REFUSE);
    }

    /**
     * Imports a struct array into a new vector schema root, copying it to the host first if it is elsewhere
     * and {@code policy} allows it.
     *
     * @param array        an open struct array; consumed on success
     * @param allocator    charged for the imported buffers until the root is closed
     * @param dictionaries receives the dictionaries of dictionary-encoded fields; may be null if there are none
     * @param policy       what to do if the array is not on the CPU
     * @return a root with the array's length as row count, owned by the caller
     * @throws IllegalArgumentException if the array cannot go to Arrow Java (see "Refusals" for its fate)
     * @throws dev.quiver.ReadOnlyArrayException if the array is read-only and no copy is allowed; it stays open
     */
    public static VectorSchemaRoot toVectorSchemaRoot(DeviceArray array, BufferAllocator allocator, CDataDictionaryProvider dictionaries,
                                                      DeviceCopy policy) {
        Objects.requireNonNull(allocator, "allocator");
        return handOver(array, policy, dictionaries, Shape.ROOT, (arrowArray, schema) ->
                Data.importVectorSchemaRoot(allocator, CpuStructs.embeddedArray(arrowArray), CpuStructs.wrapSchema(schema), dictionaries));
    }

    /**
     * Imports, into a root that already has the array's schema, a batch of a stream; the structs are
     * released by Arrow Java when the root's buffers are next replaced or closed.
     */
    static void intoVectorSchemaRoot(DeviceArray array, VectorSchemaRoot root, BufferAllocator allocator,
                                     CDataDictionaryProvider dictionaries, DeviceCopy policy) {
        handOver(array, policy, dictionaries, Shape.BATCH_OF_KNOWN_SCHEMA, (arrowArray, schema) -> {
            Data.importIntoVectorSchemaRoot(allocator, CpuStructs.embeddedArray(arrowArray), root, dictionaries);
            return root;
        });
    }

    /** Arrow Java's part of an import: consumes the moved-out structs. */
    private interface Importer<T> {
        /**
         * @param deviceArray the moved-out {@code struct ArrowDeviceArray} (CPU)
         * @param schema      the moved-out {@code struct ArrowSchema}, or NULL if the importer needs none
         */
        T importFrom(MemorySegment deviceArray, MemorySegment schema);
    }

    private static <T> T handOver(DeviceArray array, DeviceCopy policy, CDataDictionaryProvider dictionaries, Shape shape,
                                  Importer<T> importer) {
        Objects.requireNonNull(array, "array");
        Objects.requireNonNull(policy, "policy");
        DeviceArray onCpu = ImportChecks.onCpu(array, policy);
        try {
            if (shape != Shape.VECTOR) {
                ImportChecks.isRecordBatch(onCpu);
            }
            ImportChecks.representable(onCpu.field());
            ImportChecks.importable(onCpu, dictionaries);
        } catch (RuntimeException e) {
            if (onCpu != array) {
                onCpu.close();
            }
            throw e;
        }
        String description = onCpu.toString();
        try (Arena structs = Arena.ofConfined()) {
            MemorySegment deviceArray = CpuStructs.cpuDeviceArray(structs);
            MemorySegment schema = shape == Shape.BATCH_OF_KNOWN_SCHEMA ? MemorySegment.NULL : CpuStructs.schema(structs);
            Interchange.exportDevice(onCpu, deviceArray, schema);
            if (onCpu != array) {
                array.close();
            }
            try {
                return importer.importFrom(deviceArray, schema);
            } catch (RuntimeException e) {
                CpuStructs.releaseLive(deviceArray, schema, e);
                throw new IllegalArgumentException("Arrow Java could not import " + description + ": " + e.getMessage(), e);
            }
        }
    }

    /** What the import makes, which decides the checks and whether a schema struct is needed. */
    private enum Shape {
        VECTOR,
        ROOT,
        BATCH_OF_KNOWN_SCHEMA
    }
}
