package dev.quiver.stream;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.ImportOptions;
import dev.quiver.InvalidArrowException;
import dev.quiver.ProducerTrust;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.bridge.ArrayAccess;
import dev.quiver.bridge.DescriptorOptions;
import dev.quiver.internal.abi.NativeCalls;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.internal.events.Recorder;
import dev.quiver.internal.events.StreamBatchEvent;
import dev.quiver.internal.validate.Faults;
import dev.quiver.internal.validate.SchemaReader;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A {@link DeviceArrayStream} backed by a {@code struct ArrowDeviceArrayStream} moved in from C: its arrays come
 * from the producer's {@code get_next}, are checked as an import checks them, and either become
 * {@link DeviceArray}s or are relayed to another C consumer as they are.
 *
 * <p><b>Ownership.</b> The stream owns one block of the C heap holding the moved stream struct and, after it, the
 * struct {@code get_next} fills for a relayed array; {@link #release()} calls the stream's {@code release} once and
 * frees the block. <b>Threading:</b> every call but {@link #release()} runs inside the parent's gate, one at a
 * time, so the fields below need no ordering of their own.
 */
final class CArrayStream extends DeviceArrayStream {
    private static final long SIZE = ArrowDeviceArrayStreamLayout.LAYOUT.byteSize();
    private static final long SCRATCH_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();
    private static final String CARRIES_ITS_OWN = "a C stream carries its own release callback and each array its sync_event";

    /** The C heap block holding the moved stream struct, then the struct {@code get_next} fills for a relayed array. */
    private final long memory;
    private final MemorySegment struct;
    private final MemorySegment scratch;
    /** How each array is imported, with the trust read once for the stream. */
    private final ImportOptions options;
    private final ProducerTrust trust;
    /** The last {@code get_next} pointer called, serialized by the gate like the calls. */
    private MemorySegment getNext = MemorySegment.NULL;
    /** Arrays imported so far. */
    private long imported;

    private CArrayStream(long memory, Field schema, ImportOptions options, ProducerTrust trust) {
        super(schema, DeviceType.of(RawMemory.getInt(memory + ArrowDeviceArrayStreamLayout.DEVICE_TYPE)));
        this.memory = memory;
        this.struct = struct(memory);
        this.scratch = Pointers.bytes(MemorySegment.ofAddress(memory + SIZE), SCRATCH_SIZE);
        this.options = options;
        this.trust = trust;
    }

    private static MemorySegment struct(long memory) {
        return Pointers.bytes(MemorySegment.ofAddress(memory), SIZE);
    }

    /** As {@link DeviceArrayStream#importPlain}: adapts the plain stream to a device stream of CPU arrays and imports that. */
    static DeviceArrayStream openPlain(MemorySegment stream, ImportOptions options) {
        DescriptorOptions.refuse(options, CARRIES_ITS_OWN);
        MemorySegment adapter = NativeHeap.calloc(SIZE);
        try {
            PlainStreamImport.adapt(stream, adapter);
            return open(adapter, options);
        } finally {
            NativeHeap.free(adapter);
        }
    }

    /** As {@link DeviceArrayStream#importFrom(MemorySegment, ImportOptions)}: moves the struct in and reads its schema. */
    static DeviceArrayStream open(MemorySegment stream, ImportOptions options) {
        DescriptorOptions.refuse(options, CARRIES_ITS_OWN);
        if (stream.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("stream pointer is NULL");
        }
        MemorySegment from = Pointers.bytes(stream, SIZE);
        if (from.get(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE).equals(MemorySegment.NULL)) {
            throw new InvalidArrowException("release", "is NULL: the stream was already released or moved");
        }
        long memory = NativeHeap.malloc(SIZE + SCRATCH_SIZE);
        MemorySegment own = struct(memory);
        own.copyFrom(from);
        from.set(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE, MemorySegment.NULL);
        // the trust an import would read from the environment for every array, read once for the stream
        ProducerTrust trust = options.trust();
        Field schema;
        try {
            requireCallback(own, ArrowDeviceArrayStreamLayout.GET_SCHEMA, "get_schema");
            requireCallback(own, ArrowDeviceArrayStreamLayout.GET_NEXT, "get_next");
            requireCallback(own, ArrowDeviceArrayStreamLayout.GET_LAST_ERROR, "get_last_error");
            schema = readSchema(own, trust);
        } catch (RuntimeException | Error e) {
            try {
                releaseStruct(memory);
            } catch (RuntimeException | Error releaseFault) {
                e.addSuppressed(releaseFault);
            }
            throw e;
        }
        return new CArrayStream(memory, schema, options.trust(trust), trust);
    }

    private static void requireCallback(MemorySegment stream, long offset, String name) {
        if (stream.get(ADDRESS, offset).equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(name, "is NULL but the callback is mandatory");
        }
    }

    private static Field readSchema(MemorySegment struct, ProducerTrust trust) {
        try (Arena scratchArena = Arena.ofConfined()) {
            MemorySegment out = scratchArena.allocate(ArrowSchemaLayout.LAYOUT);
            int code = NativeCalls.callInt(struct.get(ADDRESS, ArrowDeviceArrayStreamLayout.GET_SCHEMA), struct, out);
            if (code != 0) {
                throw new StreamException(code, "get_schema: " + lastError(struct));
            }
            try {
                return SchemaReader.read(out, "schema", Faults.of(InvalidArrowException::new, trust == ProducerTrust.UNTRUSTED));
            } finally {
                ReleaseCallbacks.releaseSchemaStruct(out);
            }
        }
    }

    private static String lastError(MemorySegment struct) {
        String message = NativeCalls.string(NativeCalls.callPointer(struct.get(ADDRESS, ArrowDeviceArrayStreamLayout.GET_LAST_ERROR), struct));
        return message == null ? "the producer gave no description (get_last_error returned NULL)" : message;
    }

    @Override
    DeviceArray fetch() {
        StreamBatchEvent event = Recorder.streamBatch();
        // get_next writes into the block the array will own: the struct is not moved a second time
        long block = NativeHeap.malloc(SCRATCH_SIZE);
        boolean fetched = false;
        try {
            fetched = fetchRaw(block);
        } finally {
            if (!fetched) {
                NativeHeap.free(block);
            }
        }
        return fetched ? BatchEvents.imported(event, BatchEvents.PULL_IMPORT, imported++, ArrayAccess.importFetched(block, schema(), options)) : null;
    }

    /** Fetches into the scratch struct, checks the array as an import would, then moves it to {@code out}; on a fault releases it. */
    @Override
    boolean fetchInto(long out) {
        if (!fetchRaw(scratch.address())) {
            return false;
        }
        try {
            ArrayAccess.checkImported(scratch.address(), schema(), trust);
        } catch (RuntimeException | Error e) {
            try {
                ReleaseCallbacks.releaseArrayStruct(scratch.address() + ArrowDeviceArrayLayout.ARRAY);
            } catch (RuntimeException releaseFault) {
                e.addSuppressed(releaseFault);
            }
            throw e;
        }
        RawMemory.copyWords(scratch.address(), out, SCRATCH_SIZE);
        return true;
    }

    /**
     * Calls {@code get_next} into the struct at {@code into} and checks the device type.
     *
     * @param into the address of 128 writable bytes: the scratch struct, or a block for an array to own
     * @return false at the end of the stream; true if {@code into} holds a live array of the stream's device
     *         type, which the caller then owns
     */
    private boolean fetchRaw(long into) {
        // a producer that returns without writing leaves release NULL: read as the end of the stream
        RawMemory.setAddress(into + ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE, 0);
        MemorySegment target = Pointers.bytes(MemorySegment.ofAddress(into), SCRATCH_SIZE);
        int code = NativeCalls.callInt(getNext(), struct, target);
        boolean released = RawMemory.getAddress(into + ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE) == 0;
        if (code != 0) {
            String detail = lastError(struct);
            StreamException failure = new StreamException(code, detail.startsWith("get_next") ? detail : "get_next: " + detail);
            Throwable cause = PullStreamExport.javaFailure(struct.address());
            if (cause != null) {
                failure.initCause(cause);
            }
            if (!released) {
                try {
                    ReleaseCallbacks.releaseArrayStruct(target);
                } catch (RuntimeException e) {
                    failure.addSuppressed(e);
                }
            }
            throw failure;
        }
        if (released) {
            return false;
        }
        ArrayChecks.requireDeviceType(target, deviceType(), "stream");
        return true;
    }

    /** {@return the stream's {@code get_next}, as a segment made only when the pointer changes} */
    private MemorySegment getNext() {
        long pointer = RawMemory.getAddress(memory + ArrowDeviceArrayStreamLayout.GET_NEXT);
        MemorySegment cached = getNext;
        if (cached.address() != pointer) {
            cached = MemorySegment.ofAddress(pointer);
            getNext = cached;
        }
        return cached;
    }

    @Override
    void release() {
        releaseStruct(memory);
    }

    /** Calls the moved struct's {@code release} unless it is NULL, then frees the block that holds it. */
    private static void releaseStruct(long memory) {
        MemorySegment struct = struct(memory);
        try {
            MemorySegment release = struct.get(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE);
            if (!release.equals(MemorySegment.NULL)) {
                NativeCalls.callVoid(release, struct);
                struct.set(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE, MemorySegment.NULL);
            }
        } finally {
            NativeHeap.free(memory);
        }
    }
}
