package dev.quiver;

import dev.quiver.abi.PlainExport;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.function.ToLongFunction;

/**
 * How arrays come in from other runtimes and go out to them through the Arrow C Data interfaces: the import
 * and export verbs for a {@link DeviceArray}, and the full validation of what came in. The C Device Data
 * interface ({@code struct ArrowDeviceArray}) is {@link #importDevice importDevice} and
 * {@link #exportDevice exportDevice}; the plain C Data interface ({@code struct ArrowArray}, as DuckDB,
 * DataFusion, Polars and PyArrow hand it out) is {@link #importPlain importPlain} and
 * {@link #exportPlain exportPlain}; {@link #exportShared exportShared} hands out a view without giving the
 * array up. The other protocols have entry points of the same shape in their own packages:
 * {@link dev.quiver.dlpack.DLPack} ({@code importVersioned}, {@code exportVersioned}),
 * {@link dev.quiver.cai.CudaArrayInterface} ({@code importFrom}, {@code describe}), streams of arrays
 * {@link dev.quiver.stream.DeviceArrayStream}, and arrays shared between processes the module
 * {@code dev.quiver.share}.
 *
 * <p><b>Ownership.</b> An import <em>moves</em> the producer's structs into a new {@code DeviceArray} that the
 * caller owns: each struct is copied bitwise and the source's {@code release} set to NULL. Every struct is
 * released exactly once, whatever fails: on failure before the array exists, the foreign release callbacks
 * were called before the exception is thrown. {@link #exportDevice} moves an array's structs out to a
 * consumer, who then owns them and calls their release; {@link #exportShared} and {@link #exportPlain} leave
 * the array with its owner and give the consumer structs of its own that keep the array's memory alive until
 * they are released (see "Views and references" in {@link DeviceArray}).
 *
 * <p><b>Threading.</b> Stateless; every method may be called from any thread and runs on the caller's
 * thread. An export of an array concurrent with its close is the caller's race to avoid, as for every use of a
 * {@code DeviceArray}. The release callbacks of exported structs may be called by the consumer from any
 * thread.
 *
 * <p><b>Validation.</b> Every import checks the structs (counts, lengths, offsets, buffer presence, format
 * strings, nesting depth) without reading buffer contents; {@link #validateFull(DeviceArray)} reads the data
 * too. Faults are reported by {@link InvalidArrowException} naming the field path.
 *
 * {@snippet class=dev.quiver.snippets.ApiSnippets region=import}
 */
public final class Interchange {
    private Interchange() {}

    /**
     * Moves an ArrowDeviceArray and its ArrowSchema into a new DeviceArray, with {@link ImportOptions#defaults()}.
     *
     * @param deviceArray a live {@code struct ArrowDeviceArray*}; left released (release NULL)
     * @param schema      a live {@code struct ArrowSchema*}; left released
     * @return the owner of both
     * @throws InvalidArrowException if either struct breaks the spec; both were released
     */
    public static DeviceArray importDevice(MemorySegment deviceArray, MemorySegment schema) {
        return importDevice(deviceArray, schema, ImportOptions.defaults());
    }

    /**
     * Moves an ArrowDeviceArray and its ArrowSchema into a new DeviceArray: the import entry of the C Device Data
     * interface. Every struct is released exactly once, whatever fails.
     *
     * @param deviceArray a live {@code struct ArrowDeviceArray*}; left released (release NULL)
     * @param schema      a live {@code struct ArrowSchema*}; left released
     * @param options     where to find backends, how far to trust the producer's pointers, whether to refuse writes
     * @return the owner of both
     * @throws InvalidArrowException    if either struct breaks the spec, or (untrusted) a pointer or a buffer
     *                                  range is not readable host memory; both were released
     * @throws IllegalArgumentException if {@code options} set a release action or a consumer stream (for CUDA Array
     *                                  Interface imports only); checked before anything is moved
     */
    public static DeviceArray importDevice(MemorySegment deviceArray, MemorySegment schema, ImportOptions options) {
        options.checkForStructs("an ArrowDeviceArray");
        return options.appliedTo(ArrayImports.importFrom(deviceArray, schema, options));
    }

    /**
     * Moves an ArrowDeviceArray whose schema the caller already knows (as in a stream) into a new DeviceArray
     * that has no schema struct of its own.
     *
     * @param deviceArray a live {@code struct ArrowDeviceArray*}; left released
     * @param field       the field of the array (every array of a stream has the stream's)
     * @param options     where to find backends, how far to trust the producer's pointers, whether to refuse writes
     * @return the owner
     * @throws InvalidArrowException    if the struct breaks the spec, or (untrusted) a pointer or a buffer range
     *                                  is not readable host memory; it was released
     * @throws IllegalArgumentException as {@link #importDevice(MemorySegment, MemorySegment, ImportOptions)}
     */
    public static DeviceArray importDevice(MemorySegment deviceArray, Field field, ImportOptions options) {
        options.checkForStructs("an ArrowDeviceArray");
        return options.appliedTo(ArrayImports.importFrom(deviceArray, field, options.devices(), options.readOnly(), options.trust()));
    }

    /**
     * Moves an array of the plain Arrow C Data interface ({@code struct ArrowArray} and {@code struct ArrowSchema},
     * as DuckDB, DataFusion, Polars and PyArrow hand them out) in, as a CPU array: the equivalent of
     * {@link #importDevice(MemorySegment, MemorySegment, ImportOptions)} of an ArrowDeviceArray of type CPU holding
     * it. Every struct is released exactly once, whatever fails.
     *
     * @param arrowArray a live {@code struct ArrowArray*}; left released (release NULL)
     * @param schema     a live {@code struct ArrowSchema*}; left released
     * @param options    where to find backends for copies, how far to trust the producer's pointers, whether to
     *                   refuse writes
     * @return the owner of both
     * @throws InvalidArrowException    if either struct breaks the spec, or (untrusted) a pointer or a buffer
     *                                  range is not readable host memory; both were released
     * @throws IllegalArgumentException as {@link #importDevice(MemorySegment, MemorySegment, ImportOptions)}
     */
    public static DeviceArray importPlain(MemorySegment arrowArray, MemorySegment schema, ImportOptions options) {
        options.checkForStructs("an ArrowArray");
        return options.appliedTo(ArrayImports.importPlain(arrowArray, schema, options));
    }

    /**
     * Moves an array of the plain Arrow C Data interface whose schema the caller already knows in, as a CPU
     * array with no schema struct of its own: for an engine that hands over its schema once and then many
     * batches of it (DuckDB's results, a stream's batches), so that the schema is read once
     * ({@link Schemas#importFrom(MemorySegment, ProducerTrust)}) rather than exported and read again per batch.
     * The struct is checked against {@code field} as {@link #importDevice(MemorySegment, Field, ImportOptions)}
     * checks one, and released exactly once, whatever fails.
     *
     * @param arrowArray a live {@code struct ArrowArray*}; left released (release NULL)
     * @param field      the field of the array
     * @param options    where to find backends for copies, how far to trust the producer's pointers, whether to
     *                   refuse writes
     * @return the owner
     * @throws InvalidArrowException    if the struct breaks the spec or does not fit {@code field}, or
     *                                  (untrusted) a pointer or a buffer range is not readable host memory; it
     *                                  was released
     * @throws IllegalArgumentException as {@link #importDevice(MemorySegment, MemorySegment, ImportOptions)}
     */
    public static DeviceArray importPlain(MemorySegment arrowArray, Field field, ImportOptions options) {
        options.checkForStructs("an ArrowArray");
        return options.appliedTo(ArrayImports.importPlain(arrowArray, field, options));
    }

    /**
     * Moves {@code array} out into a consumer's structs: afterwards the consumer owns them and must call their
     * release callbacks; the array is closed and will release nothing.
     *
     * @param array       the array to hand over, open, with no views or references open
     * @param deviceArray 128 writable bytes for a {@code struct ArrowDeviceArray}
     * @param schema      72 writable bytes for a {@code struct ArrowSchema}, or NULL if the consumer does not
     *                    want the schema (the array's schema is then released here)
     * @throws IllegalArgumentException if {@code deviceArray} is NULL, or a target is heap memory or a sized
     *                                  segment smaller than its struct; checked before anything changes, so
     *                                  the array stays open and owned
     * @throws IllegalStateException    if the array is closed, moved, or has views or references open
     */
    public static void exportDevice(DeviceArray array, MemorySegment deviceArray, MemorySegment schema) {
        ArrayExports.moveOut(array, deviceArray, schema);
    }

    /**
     * Exports a view of {@code array} without giving it up: the consumer gets its own ArrowDeviceArray and
     * ArrowSchema pointing at the same buffers (zero-copy), and the array's memory stays alive until both
     * the array is closed and every such view is released, in any order, from any thread. The view carries
     * the same {@code sync_event} pointer, valid for as long as the view is.
     *
     * @param array       the array to share, open; still owned by the caller afterwards
     * @param deviceArray 128 writable bytes for the consumer's {@code struct ArrowDeviceArray}
     * @param schema      72 writable bytes for the consumer's {@code struct ArrowSchema}, or NULL
     * @throws IllegalArgumentException if {@code deviceArray} is NULL, or a target is heap memory or a sized
     *                                  segment smaller than its struct; checked before anything changes
     * @throws IllegalStateException if the array is closed or moved
     */
    public static void exportShared(DeviceArray array, MemorySegment deviceArray, MemorySegment schema) {
        ArrayExports.share(array, deviceArray, schema);
    }

    /**
     * Exports {@code array} through the plain Arrow C Data interface ({@code struct ArrowArray} and
     * {@code struct ArrowSchema}), for consumers that speak no C Device interface (DuckDB's
     * {@code duckdb_arrow_scan}, PyArrow's {@code _import_from_c}). As {@link #exportShared}: the array stays
     * open and owned by the caller, the export holds a reference to its memory, and the consumer releases
     * both structs. A CPU array goes across without a copy; any other is copied to the host or refused, as
     * {@code policy} says.
     *
     * @param array      the array to export, open; still owned by the caller afterwards
     * @param arrowArray where to write the {@code struct ArrowArray}; an unused (released) struct
     * @param schema     where to write the {@code struct ArrowSchema}, or NULL to write none
     * @param policy     what to do with an array not in CPU memory
     * @throws IllegalArgumentException if the array is not in CPU memory and {@code policy} refuses, naming
     *                                  its device; or a target is NULL, Java heap memory, misaligned or too small
     * @throws IllegalStateException    if the array is closed or moved
     */
    public static void exportPlain(DeviceArray array, MemorySegment arrowArray, MemorySegment schema, PlainExport policy) {
        ArrayExports.plain(array, arrowArray, schema, policy);
    }

    /**
     * Validates the data of {@code array}, not only its structs: offsets, UTF-8, null counts, union type ids,
     * dictionary indices, run ends and views (see {@link InvalidArrowException} for how faults are named). The
     * C Data Interface carries no buffer sizes, so for arrays in host-accessible memory every pointer and every
     * byte range the structs imply is first checked against the process's readable mappings (as an
     * {@link ProducerTrust#UNTRUSTED} import does), whatever the trust the array was imported with: memory that
     * is not mapped, or shorter than the structs say, is refused instead of read. Arrays not in host memory are
     * copied to the host first (the device memory itself stays trusted). Use
     * {@link #validateFull(DeviceArray, ToLongFunction)} when you know the true buffer sizes.
     *
     * <p>Blocks the calling thread: it waits on the host for the array's sync event and reads every buffer.
     *
     * @param array an open array; it stays open and owned by the caller
     * @throws InvalidArrowException naming the path and rule of the first fault
     * @throws IllegalStateException if the array is closed or moved
     */
    public static void validateFull(DeviceArray array) {
        ArrayValidation.validateFull(array, pointer -> -1);
    }

    /**
     * Validates the data as {@link #validateFull(DeviceArray)} does, checking every size the structs imply
     * against the true size of each buffer before reading it. A buffer whose size the caller gives is taken as
     * memory the caller holds: a range within it is read without asking the process's mappings, a range past it
     * is refused ({@code the array addresses N bytes but the buffer holds M}); buffers of unknown size and the
     * structs are checked against the mappings as {@link #validateFull(DeviceArray)} checks them.
     *
     * @param array          an open array; it stays open and owned by the caller
     * @param bufferCapacity the size in bytes of the buffer starting at a pointer, or -1 if unknown; called
     *                       during this call only, on the calling thread, once or more per buffer
     * @throws InvalidArrowException naming the path and rule of the first fault
     * @throws IllegalStateException if the array is closed or moved
     */
    public static void validateFull(DeviceArray array, ToLongFunction<MemorySegment> bufferCapacity) {
        ArrayValidation.validateFull(array, bufferCapacity);
    }

    /**
     * {@return the {@code struct ArrowDeviceArray} that {@code array} owns, borrowed for reading: valid until the
     * array is closed or exported; never call its release yourself}
     * @param array an open array
     * @throws IllegalStateException if the array is closed or exported
     */
    public static MemorySegment struct(DeviceArray array) {
        return array.struct();
    }

    /**
     * {@return the {@code struct ArrowArray} embedded in the {@code struct ArrowDeviceArray} that {@code array}
     * owns, borrowed like {@link #struct(DeviceArray)}}
     * @param array an open array
     * @throws IllegalStateException if the array is closed or exported
     */
    public static MemorySegment arrowArray(DeviceArray array) {
        return array.arrowArray();
    }
}
