package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.ArrayCopier;
import dev.quiver.internal.ArrayData;
import dev.quiver.internal.ArrayValidator;
import dev.quiver.internal.FullValidator;
import dev.quiver.internal.HostMemory;
import dev.quiver.internal.NativeHeap;
import dev.quiver.internal.ReleaseCallbacks;
import dev.quiver.internal.SchemaReader;
import dev.quiver.internal.StructWriter;
import dev.quiver.spi.BackendDevice;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.Optional;
import java.util.function.ToLongFunction;
import java.util.concurrent.atomic.AtomicInteger;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The owner of one {@code ArrowDeviceArray} and its schema: Arrow data on some device.
 *
 * <p><b>Ownership.</b> A DeviceArray owns its structs exclusively. It gets them by <em>moving</em> (the
 * struct is copied bitwise and the source's {@code release} set to NULL, so the producer's struct is left
 * released) and gives them away the same way with {@link #exportTo}. {@link #close()} calls the array's and
 * the schema's release callbacks exactly once; it may be called from any thread and any number of times.
 * A DeviceArray that becomes unreachable without being closed is reported as a leak (see
 * {@link Diagnostics}) and its release is <em>not</em> called: the Cleaner is a safety net that reports,
 * never the release mechanism.
 *
 * <p><b>Threading.</b> Reading accessors may be used from several threads while the array is open. Closing
 * or exporting concurrently with other use is the caller's race to avoid; Quiver guarantees only that
 * release runs once and that use after close fails with {@link IllegalStateException}.
 *
 * <p><b>Read-only arrays.</b> An array imported from a producer that forbids writes (a DLPack tensor flagged
 * {@code READ_ONLY}, a CUDA Array Interface descriptor with {@code readonly} true) is read-only:
 * {@link #isReadOnly()} says so and every path that would let anyone write to its buffers calls
 * {@link #checkWritable()}, which refuses. Copies ({@link #copyTo}, {@link #copyToHost()}) are writable. The
 * flag does not travel through {@link #exportTo}: arrays of the Arrow C Device Data Interface are immutable
 * by specification.
 *
 * <p><b>Validation.</b> Every import checks the structs (counts, lengths, offsets, buffer presence, format
 * strings, nesting depth) without reading buffer contents; faults are reported by
 * {@link InvalidArrowException} naming the field path, after the foreign release has been called.
 *
 * {@snippet :
 * try (DeviceArray batch = DeviceArray.importFrom(deviceArrayPointer, schemaPointer)) {
 *     System.out.println(batch.field() + " on " + batch.deviceType() + ", " + batch.length() + " rows");
 *     batch.syncEvent().ifPresent(SyncEvent::waitOnHost);
 * }
 * }
 */
public final class DeviceArray implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();
    private static final int OPEN = 0;
    private static final int CLOSED = 1;
    private static final int MOVED = 2;

    private final MemorySegment struct;
    private final MemorySegment schema;
    private final Field field;
    private final DeviceType deviceType;
    private final long deviceId;
    private final Devices devices;
    private final SyncEvent syncEvent;
    private final boolean readOnly;
    private final State state;
    /** The owner's reference plus one per shared view not yet released. */
    private final AtomicInteger references = new AtomicInteger(1);
    private final Cleaner.Cleanable cleanable;

    /** The part the Cleaner sees: never the DeviceArray itself. */
    private static final class State implements Runnable {
        final AtomicInteger value = new AtomicInteger(OPEN);
        final DeviceType type;
        final long id;
        final String name;
        final Throwable allocationSite;

        State(DeviceType type, long id, String name) {
            this.type = type;
            this.id = id;
            this.name = name;
            this.allocationSite = Diagnostics.TRACKING ? new Throwable("DeviceArray made here") : null;
        }

        /** Built only when a message needs it: arrays are made on hot paths. */
        String description() {
            return "DeviceArray " + type + ":" + id + " \"" + name + "\"";
        }

        @Override
        public void run() {
            if (value.get() == OPEN) {
                Diagnostics.reportLeak(description(), allocationSite);
            }
        }
    }

    private DeviceArray(MemorySegment struct, MemorySegment schema, Field field, Devices devices, boolean readOnly) {
        this.struct = struct;
        this.readOnly = readOnly;
        this.schema = schema;
        this.field = field;
        this.devices = devices;
        this.deviceType = DeviceType.of(struct.get(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE));
        this.deviceId = struct.get(JAVA_LONG, ArrowDeviceArrayLayout.DEVICE_ID);
        this.state = new State(deviceType, deviceId, field.name());
        MemorySegment event = struct.get(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT);
        this.syncEvent = event.equals(MemorySegment.NULL) ? null : new SyncEvent(deviceType, event,
                () -> devices.get(deviceType, deviceId).backend(), () -> state.value.get() == OPEN);
        this.cleanable = CLEANER.register(this, state);
    }

    /**
     * Moves an ArrowDeviceArray and its ArrowSchema into a new DeviceArray, using {@link Devices#system()}
     * to find backends for events and copies.
     *
     * @param deviceArray a live {@code struct ArrowDeviceArray*}; left released (release NULL)
     * @param schema      a live {@code struct ArrowSchema*}; left released
     * @return the owner of both
     * @throws InvalidArrowException if either struct breaks the spec; both were released
     */
    public static DeviceArray importFrom(MemorySegment deviceArray, MemorySegment schema) {
        return importFrom(deviceArray, schema, Devices.system());
    }

    /**
     * Moves an ArrowDeviceArray and its ArrowSchema into a new DeviceArray.
     *
     * @param deviceArray a live {@code struct ArrowDeviceArray*}; left released (release NULL)
     * @param schema      a live {@code struct ArrowSchema*}; left released
     * @param devices     where to find backends for events and copies
     * @return the owner of both
     * @throws InvalidArrowException if either struct breaks the spec; both were released
     */
    public static DeviceArray importFrom(MemorySegment deviceArray, MemorySegment schema, Devices devices) {
        MemorySegment ownArray;
        try {
            ownArray = move(deviceArray, ArrowDeviceArrayLayout.LAYOUT.byteSize(), ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE, "release");
        } catch (RuntimeException e) {
            try {
                releaseAndFreeSchema(move(schema, ArrowSchemaLayout.LAYOUT.byteSize(), ArrowSchemaLayout.RELEASE, "schema.release"));
            } catch (RuntimeException schemaFault) {
                e.addSuppressed(schemaFault);
            }
            throw e;
        }
        MemorySegment ownSchema;
        try {
            ownSchema = move(schema, ArrowSchemaLayout.LAYOUT.byteSize(), ArrowSchemaLayout.RELEASE, "schema.release");
        } catch (RuntimeException e) {
            releaseAndFreeArray(ownArray);
            throw e;
        }
        try {
            Field field = SchemaReader.read(ownSchema);
            return adopt(ownArray, ownSchema, field, devices, false);
        } catch (RuntimeException | Error e) {
            releaseQuietly(ownArray, ownSchema, e);
            throw e;
        }
    }

    /**
     * Moves an ArrowDeviceArray whose schema the caller already knows (as in a stream) into a new
     * DeviceArray that has no schema struct of its own.
     *
     * @param deviceArray a live {@code struct ArrowDeviceArray*}; left released
     * @param field       the field every array of the stream has
     * @param devices     where to find backends
     * @return the owner
     * @throws InvalidArrowException if the struct breaks the spec; it was released
     */
    public static DeviceArray importFrom(MemorySegment deviceArray, Field field, Devices devices) {
        return importFrom(deviceArray, field, devices, false);
    }

    /**
     * Moves an ArrowDeviceArray whose producer forbids writes into a new, read-only DeviceArray that has no
     * schema struct of its own (see "Read-only arrays" above).
     *
     * @param deviceArray a live {@code struct ArrowDeviceArray*}; left released
     * @param field       the field of the array
     * @param devices     where to find backends
     * @return the owner, whose {@link #isReadOnly()} is true
     * @throws InvalidArrowException if the struct breaks the spec; it was released
     */
    public static DeviceArray importReadOnly(MemorySegment deviceArray, Field field, Devices devices) {
        return importFrom(deviceArray, field, devices, true);
    }

    private static DeviceArray importFrom(MemorySegment deviceArray, Field field, Devices devices, boolean readOnly) {
        MemorySegment ownArray = move(deviceArray, ArrowDeviceArrayLayout.LAYOUT.byteSize(), ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE, "release");
        try {
            return adopt(ownArray, null, field, devices, readOnly);
        } catch (RuntimeException | Error e) {
            releaseQuietly(ownArray, null, e);
            throw e;
        }
    }

    private static DeviceArray adopt(MemorySegment ownArray, MemorySegment ownSchema, Field field, Devices devices, boolean readOnly) {
        MemorySegment array = ownArray.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize());
        ArrayValidator.validate(array, field);
        DeviceType type = DeviceType.of(ownArray.get(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE));
        boolean hasEvent = !ownArray.get(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT).equals(MemorySegment.NULL);
        if (hasEvent && type.isKnown() && type.eventType().isEmpty()) {
            throw new InvalidArrowException("sync_event", "is set but " + type + " arrays have no events (must be NULL)");
        }
        return new DeviceArray(ownArray, ownSchema, field, devices, readOnly);
    }

    private static MemorySegment move(MemorySegment source, long size, long releaseOffset, String releasePath) {
        if (source.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("struct pointer is NULL");
        }
        MemorySegment from = source.reinterpret(size);
        if (from.get(ADDRESS, releaseOffset).equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(releasePath, "is NULL: the struct was already released or moved");
        }
        MemorySegment own = NativeHeap.calloc(size);
        own.copyFrom(from);
        from.set(ADDRESS, releaseOffset, MemorySegment.NULL);
        return own;
    }

    private static void releaseQuietly(MemorySegment array, MemorySegment schema, Throwable primary) {
        try {
            releaseAndFreeArray(array);
        } catch (RuntimeException e) {
            primary.addSuppressed(e);
        }
        if (schema != null) {
            try {
                releaseAndFreeSchema(schema);
            } catch (RuntimeException e) {
                primary.addSuppressed(e);
            }
        }
    }

    /** Calls the release of a struct this class moved in, then frees the memory it was moved into. */
    private static void releaseAndFreeArray(MemorySegment own) {
        try {
            ReleaseCallbacks.releaseArrayStruct(own);
        } finally {
            NativeHeap.free(own);
        }
    }

    private static void releaseAndFreeSchema(MemorySegment own) {
        try {
            ReleaseCallbacks.releaseSchemaStruct(own);
        } finally {
            NativeHeap.free(own);
        }
    }

    /**
     * Moves this array out into a consumer's structs: afterwards the consumer owns them and must call their
     * release callbacks; this object is closed and will release nothing.
     *
     * @param deviceArray 128 writable bytes for a {@code struct ArrowDeviceArray}
     * @param schema      72 writable bytes for a {@code struct ArrowSchema}, or NULL if the consumer does not
     *                    want the schema (this array's schema is then released here)
     */
    public void exportTo(MemorySegment deviceArray, MemorySegment schema) {
        if (references.get() > 1) {
            throw new IllegalStateException(state.description() + " has " + (references.get() - 1)
                    + " shared view(s) not yet released; it cannot be moved out");
        }
        if (!state.value.compareAndSet(OPEN, MOVED)) {
            throw new IllegalStateException(state.description() + " is " + (state.value.get() == MOVED ? "moved" : "closed"));
        }
        cleanable.clean();
        deviceArray.reinterpret(ArrowDeviceArrayLayout.LAYOUT.byteSize()).copyFrom(struct);
        NativeHeap.free(struct);
        if (schema.equals(MemorySegment.NULL)) {
            if (this.schema != null) {
                releaseAndFreeSchema(this.schema);
            }
        } else if (this.schema != null) {
            schema.reinterpret(ArrowSchemaLayout.LAYOUT.byteSize()).copyFrom(this.schema);
            NativeHeap.free(this.schema);
        } else {
            StructWriter.writeSchema(schema.reinterpret(ArrowSchemaLayout.LAYOUT.byteSize()), field);
        }
    }

    /**
     * Copies this array, its buffers and children, to another device (or the same one). Waits on the host
     * for this array's sync event first. The copy carries its own sync event where the target has events.
     *
     * @param target the device to copy to
     * @return the copy, owned by the caller
     */
    public DeviceArray copyTo(Device target) {
        return copyTo(target, target.defaultStream());
    }

    /**
     * Copies this array to {@code target}, enqueuing the work on {@code stream}.
     *
     * @param target the device to copy to
     * @param stream a stream of {@code target}
     * @return the copy, owned by the caller
     */
    public DeviceArray copyTo(Device target, DeviceStream stream) {
        return copy(target.backend(), stream.handle());
    }

    /**
     * Copies this array into host memory that the JVM allocates, whatever backends are installed: the way
     * to read data from any device. Waits on the host for this array's sync event first.
     *
     * @return a CPU copy, owned by the caller
     */
    public DeviceArray copyToHost() {
        return copy(HostMemory.device(), MemorySegment.NULL);
    }

    private DeviceArray copy(BackendDevice target, MemorySegment stream) {
        checkOpen();
        if (syncEvent != null) {
            syncEvent.waitOnHost();
        }
        BackendDevice source = deviceType.equals(DeviceType.CPU) ? HostMemory.device() : devices.get(deviceType, deviceId).backend();
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment out = scratch.allocate(ArrowDeviceArrayLayout.LAYOUT);
            ArrayCopier.copy(arrowArray(), field, source, target, stream, out);
            return importFrom(out, field, devices);
        }
    }

    /**
     * Validates the data, not only the structs: offsets, UTF-8, null counts, union type ids, dictionary
     * indices, run ends and views (see {@link InvalidArrowException} for how faults are named). Arrays not in
     * host memory are copied to the host first. The C Data Interface carries no buffer sizes, so the sizes
     * the structs imply are trusted; use {@link #validateFull(ToLongFunction)} when you know them.
     *
     * @throws InvalidArrowException naming the path and rule of the first fault; the array stays open
     */
    public void validateFull() {
        validateFull(pointer -> -1);
    }

    /**
     * Validates the data as {@link #validateFull()} does, checking every size the structs imply against the
     * true size of each buffer before reading it.
     *
     * @param bufferCapacity the size in bytes of the buffer starting at a pointer, or -1 if unknown
     * @throws InvalidArrowException naming the path and rule of the first fault; the array stays open
     */
    public void validateFull(ToLongFunction<MemorySegment> bufferCapacity) {
        checkOpen();
        if (deviceType.isHostAccessible()) {
            if (syncEvent != null) {
                syncEvent.waitOnHost();
            }
            FullValidator.validate(arrowArray(), field, bufferCapacity);
        } else {
            try (DeviceArray host = copyToHost()) {
                FullValidator.validate(host.arrowArray(), field, pointer -> -1);
            }
        }
    }

    /** @return the field (type, name, nullability, children) of this array */
    public Field field() {
        return field;
    }

    /** @return the device type of the memory the buffers point to */
    public DeviceType deviceType() {
        return deviceType;
    }

    /** @return the device id ({@code -1} for the CPU by convention) */
    public long deviceId() {
        return deviceId;
    }

    /** @return the number of elements (the top-level {@code length}) */
    public long length() {
        return arrowArray().get(JAVA_LONG, ArrowArrayLayout.LENGTH);
    }

    /** @return the top-level {@code null_count} (-1 if the producer did not compute it) */
    public long nullCount() {
        return arrowArray().get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT);
    }

    /** @return where this array finds backends for its events and copies */
    public Devices devices() {
        return devices;
    }

    /** @return true if the producer of this array's memory forbids writes to it */
    public boolean isReadOnly() {
        return readOnly;
    }

    /**
     * Called by every path that writes to this array's buffers or hands them to someone who may write.
     *
     * @throws ReadOnlyArrayException if this array is read-only
     * @throws IllegalStateException  if it is closed or exported
     */
    public void checkWritable() {
        checkOpen();
        if (readOnly) {
            throw new ReadOnlyArrayException(state.description() + " is read-only: its producer forbids writes to its memory; copy it (copyTo) to get a writable array");
        }
    }

    /** @return the sync event that guards this array's data, if the producer set one */
    public Optional<SyncEvent> syncEvent() {
        checkOpen();
        return Optional.ofNullable(syncEvent);
    }

    /**
     * @return the {@code struct ArrowDeviceArray} this object owns, borrowed for reading: valid until
     *         {@link #close()} or {@link #exportTo}; never call its release yourself
     */
    public MemorySegment struct() {
        checkOpen();
        return struct;
    }

    /** @return the embedded {@code struct ArrowArray}, borrowed like {@link #struct()} */
    public MemorySegment arrowArray() {
        checkOpen();
        return struct.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize());
    }

    /** @return true once closed or exported */
    public boolean isClosed() {
        return state.value.get() != OPEN;
    }

    /** Calls the array's and the schema's release callbacks, exactly once; any thread; idempotent. */
    @Override
    public void close() {
        if (!state.value.compareAndSet(OPEN, CLOSED)) {
            return;
        }
        cleanable.clean();
        dropReference();
    }

    /**
     * Exports a view of this array without giving it up: the consumer gets its own ArrowDeviceArray and
     * ArrowSchema pointing at the same buffers (zero-copy), and this array's memory stays alive until both
     * this object is closed and every such view is released, in any order, from any thread. The view carries
     * the same {@code sync_event} pointer, valid for as long as the view is.
     *
     * @param deviceArray 128 writable bytes for the consumer's {@code struct ArrowDeviceArray}
     * @param schema      72 writable bytes for the consumer's {@code struct ArrowSchema}, or NULL
     * @throws IllegalStateException if this array is closed or moved
     */
    public void exportShared(MemorySegment deviceArray, MemorySegment schema) {
        int held;
        do {
            held = references.get();
            if (held == 0 || state.value.get() != OPEN) {
                throw new IllegalStateException(state.description() + " is " + (state.value.get() == MOVED ? "moved" : "closed"));
            }
        } while (!references.compareAndSet(held, held + 1));
        try {
            StructWriter.writeDeviceArray(deviceArray.reinterpret(ArrowDeviceArrayLayout.LAYOUT.byteSize()), ArrayData.viewOf(arrowArray()),
                    deviceType.code(), deviceId, struct.get(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT), this::dropReference);
        } catch (RuntimeException | Error e) {
            dropReference();
            throw e;
        }
        if (!schema.equals(MemorySegment.NULL)) {
            StructWriter.writeSchema(schema.reinterpret(ArrowSchemaLayout.LAYOUT.byteSize()), field);
        }
    }

    /** Releases the structs once the owner and every shared view have let go. */
    private void dropReference() {
        if (references.decrementAndGet() != 0) {
            return;
        }
        try {
            releaseAndFreeArray(struct);
        } finally {
            if (schema != null) {
                releaseAndFreeSchema(schema);
            }
        }
    }

    private void checkOpen() {
        int value = state.value.get();
        if (value != OPEN) {
            throw new IllegalStateException(state.description() + " is " + (value == MOVED ? "moved out (exported)" : "closed"));
        }
    }

    @Override
    public String toString() {
        return state.description() + (isClosed() ? " (closed)" : "");
    }
}
