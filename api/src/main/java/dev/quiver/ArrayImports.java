package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.internal.events.ArrayImportEvent;
import dev.quiver.internal.events.Recorder;
import dev.quiver.internal.validate.ArrayValidator;
import dev.quiver.internal.validate.Faults;
import dev.quiver.internal.validate.HostBufferRanges;
import dev.quiver.internal.validate.SchemaCache;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;

/**
 * How a {@link DeviceArray} comes in: moving a producer's structs into memory Quiver owns, checking them as an
 * import does (with {@link ProducerTrust#UNTRUSTED} every host range against the process's mappings), releasing
 * every struct exactly once on every failure, and recording the import for JFR. {@link Interchange}'s
 * {@code importDevice} and {@code importPlain} calls come here. Stateless; any thread.
 */
final class ArrayImports {
    private static final long DEVICE_ARRAY_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();
    private static final long SCHEMA_SIZE = ArrowSchemaLayout.LAYOUT.byteSize();
    private static final Faults TRUSTED = Faults.throwing(InvalidArrowException::new);

    private ArrayImports() {}

    /** See {@link Interchange#importDevice(MemorySegment, MemorySegment, ImportOptions)}. */
    static DeviceArray importFrom(MemorySegment deviceArray, MemorySegment schema, ImportOptions options) {
        ArrayImportEvent event = Recorder.arrayImport();
        boolean checking = options.trust() == ProducerTrust.UNTRUSTED;
        Faults faults = faults(checking);
        long block = NativeHeap.malloc(DEVICE_ARRAY_SIZE + SCHEMA_SIZE);
        long ownSchema = block + ArrayState.SCHEMA_OFFSET;
        try {
            move(deviceArray, block, DEVICE_ARRAY_SIZE, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE, "release", faults, checking);
        } catch (RuntimeException e) {
            try {
                releaseSchemaOf(e, schema, ownSchema, faults, checking);
            } finally {
                NativeHeap.free(block);
            }
            throw e;
        }
        try {
            move(schema, ownSchema, SCHEMA_SIZE, ArrowSchemaLayout.RELEASE, "schema.release", faults, checking);
        } catch (RuntimeException e) {
            ArrayState.releaseQuietly(block, false, e);
            throw e;
        }
        try {
            Field field = SchemaCache.read(ownSchema, faults);
            return imported(adopt(block, true, field, options.devices(), options.readOnly(), faults, checking), event);
        } catch (RuntimeException | Error e) {
            ArrayState.releaseQuietly(block, true, e);
            throw e;
        }
    }

    /** See {@link Interchange#importPlain(MemorySegment, MemorySegment, ImportOptions)}. */
    static DeviceArray importPlain(MemorySegment arrowArray, MemorySegment schema, ImportOptions options) {
        boolean checking = options.trust() == ProducerTrust.UNTRUSTED;
        Faults faults = faults(checking);
        MemorySegment struct = NativeHeap.calloc(DEVICE_ARRAY_SIZE);
        long scratch = struct.address();
        try {
            try {
                move(arrowArray, scratch + ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize(),
                        ArrowArrayLayout.RELEASE, "release", faults, checking);
            } catch (RuntimeException e) {
                long ownSchema = NativeHeap.malloc(SCHEMA_SIZE);
                try {
                    releaseSchemaOf(e, schema, ownSchema, faults, checking);
                } finally {
                    NativeHeap.free(ownSchema);
                }
                throw e;
            }
            onTheCpu(scratch);
            return importFrom(struct, schema, options);
        } finally {
            NativeHeap.free(scratch);
        }
    }

    /** See {@link Interchange#importPlain(MemorySegment, Field, ImportOptions)}. */
    static DeviceArray importPlain(MemorySegment arrowArray, Field field, ImportOptions options) {
        boolean checking = options.trust() == ProducerTrust.UNTRUSTED;
        MemorySegment struct = NativeHeap.calloc(DEVICE_ARRAY_SIZE);
        long scratch = struct.address();
        try {
            move(arrowArray, scratch + ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize(),
                    ArrowArrayLayout.RELEASE, "release", faults(checking), checking);
            onTheCpu(scratch);
            return importFrom(struct, field, options.devices(), options.readOnly(), options.trust());
        } finally {
            NativeHeap.free(scratch);
        }
    }

    /** Makes the ArrowDeviceArray at {@code deviceArray} one of the CPU (device id -1, no event). */
    private static void onTheCpu(long deviceArray) {
        RawMemory.setLong(deviceArray + ArrowDeviceArrayLayout.DEVICE_ID, -1);
        RawMemory.setInt(deviceArray + ArrowDeviceArrayLayout.DEVICE_TYPE, DeviceType.CPU.code());
    }

    /** See {@link Interchange#importDevice(MemorySegment, Field, ImportOptions)}. */
    static DeviceArray importFrom(MemorySegment deviceArray, Field field, Devices devices, boolean readOnly, ProducerTrust trust) {
        ArrayImportEvent event = Recorder.arrayImport();
        boolean checking = trust == ProducerTrust.UNTRUSTED;
        Faults faults = faults(checking);
        long block = moveIn(deviceArray, faults, checking);
        try {
            return imported(adopt(block, false, field, devices, readOnly, faults, checking), event);
        } catch (RuntimeException | Error e) {
            ArrayState.releaseQuietly(block, false, e);
            throw e;
        }
    }

    /**
     * Imports an ArrowDeviceArray that a stream's {@code get_next} wrote into a block allocated for it, taking
     * the block over: no second move, and none of a move's checks of a foreign pointer (the block is Quiver's,
     * and the stream checked that the producer wrote a live struct). On failure the struct is released and the
     * block freed.
     *
     * @param block   a {@link NativeHeap} block of an ArrowDeviceArray's size (128 bytes) holding a live struct
     * @param field   the stream's field
     * @param options where the array finds backends, the producer's trust, whether the array refuses writes
     * @return the array, owned by the caller
     */
    static DeviceArray importFetched(long block, Field field, ImportOptions options) {
        ArrayImportEvent event = Recorder.arrayImport();
        boolean checking = options.trust() == ProducerTrust.UNTRUSTED;
        try {
            return imported(adopt(block, false, field, options.devices(), options.readOnly(), faults(checking), checking), event);
        } catch (RuntimeException | Error e) {
            ArrayState.releaseQuietly(block, false, e);
            throw e;
        }
    }

    /** See {@link Schemas#importFrom(MemorySegment, ProducerTrust)}. */
    static Field importSchema(MemorySegment schema, ProducerTrust trust) {
        boolean checking = trust == ProducerTrust.UNTRUSTED;
        Faults faults = faults(checking);
        long own = NativeHeap.malloc(SCHEMA_SIZE);
        try {
            move(schema, own, SCHEMA_SIZE, ArrowSchemaLayout.RELEASE, "release", faults, checking);
            try {
                return SchemaCache.read(own, faults);
            } finally {
                ReleaseCallbacks.releaseSchemaStruct(own);
            }
        } finally {
            NativeHeap.free(own);
        }
    }

    /**
     * Moves an ArrowDeviceArray that Quiver wrote itself from validated parts (a view, a built array) into a
     * new DeviceArray, without validating it again; on failure it is released.
     */
    static DeviceArray adoptWritten(MemorySegment written, Field field, Devices devices, boolean readOnly) {
        long block = moveIn(written, TRUSTED, false);
        try {
            return new DeviceArray(block, false, field, devices, readOnly);
        } catch (RuntimeException | Error e) {
            ArrayState.releaseQuietly(block, false, e);
            throw e;
        }
    }

    /** @return a new block holding the ArrowDeviceArray moved from {@code deviceArray} */
    private static long moveIn(MemorySegment deviceArray, Faults faults, boolean checking) {
        long block = NativeHeap.malloc(DEVICE_ARRAY_SIZE);
        try {
            move(deviceArray, block, DEVICE_ARRAY_SIZE, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE, "release", faults, checking);
        } catch (RuntimeException | Error e) {
            NativeHeap.free(block);
            throw e;
        }
        return block;
    }

    private static DeviceArray adopt(long block, boolean hasSchema, Field field, Devices devices, boolean readOnly,
                                     Faults faults, boolean checking) {
        checkImported(block, field, faults, checking);
        return new DeviceArray(block, hasSchema, field, devices, readOnly);
    }

    /**
     * The checks every import makes of an ArrowDeviceArray it has taken over, before anything reads through
     * it: the structs against the field, with {@code checking} every host range against the process's
     * mappings, and the {@code sync_event} against the device type. Also reached through
     * {@code bridge.ArrayAccess} by a stream that relays arrays without importing them.
     *
     * @param deviceArray the address of an ArrowDeviceArray the caller owns
     * @throws InvalidArrowException naming the first fault; the caller releases the struct
     */
    static void checkImported(long deviceArray, Field field, boolean checking) {
        checkImported(deviceArray, field, faults(checking), checking);
    }

    /** {@return the sink for one import's checks: shared where pointers are trusted, a new one where they are checked} */
    private static Faults faults(boolean checking) {
        return checking ? Faults.checking(InvalidArrowException::new) : TRUSTED;
    }

    private static void checkImported(long deviceArray, Field field, Faults faults, boolean checking) {
        long array = deviceArray + ArrowDeviceArrayLayout.ARRAY;
        ArrayValidator.validate(array, field, faults);
        DeviceType type = DeviceType.of(RawMemory.getInt(deviceArray + ArrowDeviceArrayLayout.DEVICE_TYPE));
        if (checking && type.isHostAccessible()) {
            HostBufferRanges.check(array, field, faults);
        }
        long syncEvent = RawMemory.getAddress(deviceArray + ArrowDeviceArrayLayout.SYNC_EVENT);
        boolean hasEvent = syncEvent != 0;
        if (hasEvent && type.isKnown() && type.eventType().isEmpty()) {
            throw new InvalidArrowException("sync_event", "is set but " + type + " arrays have no events (must be NULL)");
        }
        // sync_event is a host pointer to the event whatever the device: checked like every other host pointer
        if (checking && hasEvent && !faults.canRead(syncEvent, Long.BYTES)) {
            throw new InvalidArrowException("sync_event", faults.unreadableReason(syncEvent, Long.BYTES));
        }
    }

    /** Finishes {@code event}, if a recording started one, with what was imported. */
    private static DeviceArray imported(DeviceArray array, ArrayImportEvent event) {
        if (event != null) {
            event.finish(array.deviceType() + ":" + array.deviceId(), array.field().name(), array.length());
        }
        return array;
    }

    /**
     * Moves the struct at {@code source} into {@code target} (bitwise copy, then the source's release set
     * to NULL), after checking the pointer.
     */
    private static void move(MemorySegment source, long target, long size, long releaseOffset, String releasePath,
                             Faults faults, boolean checking) {
        if (source.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("struct pointer is NULL");
        }
        if (!source.isNative()) {
            throw new IllegalArgumentException("struct pointer is Java heap memory; C structs live in native memory");
        }
        long from = source.address();
        if (from % Long.BYTES != 0) {
            throw new IllegalArgumentException("struct pointer 0x" + Long.toHexString(from) + " is not aligned to " + Long.BYTES + " bytes");
        }
        if (checking && !faults.canRead(from, size)) {
            throw new IllegalArgumentException("struct pointer 0x" + Long.toHexString(from) + " does not point to "
                    + size + " bytes of readable memory");
        }
        if (RawMemory.getAddress(from + releaseOffset) == 0) {
            throw new InvalidArrowException(releasePath, "is NULL: the struct was already released or moved");
        }
        RawMemory.copyWords(from, target, size);
        RawMemory.setAddress(from + releaseOffset, 0);
    }

    /**
     * Moves the schema of an import that failed before its array was taken into {@code ownSchema} and releases
     * it there, so that it is released once; failures join {@code primary}.
     */
    private static void releaseSchemaOf(RuntimeException primary, MemorySegment schema, long ownSchema, Faults faults, boolean checking) {
        try {
            move(schema, ownSchema, SCHEMA_SIZE, ArrowSchemaLayout.RELEASE, "schema.release", faults, checking);
            ReleaseCallbacks.releaseSchemaStruct(ownSchema);
        } catch (RuntimeException schemaFault) {
            primary.addSuppressed(schemaFault);
        }
    }
}
