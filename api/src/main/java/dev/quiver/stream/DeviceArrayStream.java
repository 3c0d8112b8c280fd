package dev.quiver.stream;

import dev.quiver.bridge.DescriptorOptions;
import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.InvalidArrowException;
import dev.quiver.ProducerTrust;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.NativeCalls;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.bridge.ArrayAccess;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.internal.events.StreamBatchEvent;
import dev.quiver.internal.events.Recorder;
import dev.quiver.internal.validate.Faults;
import dev.quiver.internal.validate.SchemaReader;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A {@code struct ArrowDeviceArrayStream} from C, consumed as an {@link Iterator} of {@link DeviceArray}s.
 *
 * <p><b>Ownership.</b> {@link #importFrom} moves the stream struct in (the producer's struct is left
 * released) and reads its schema once. {@link #next()} hands out arrays that the caller owns and must
 * close; they outlive the stream, so closing the stream does not close them. {@link #close()} calls the
 * stream's {@code release} exactly once (and releases an array fetched by {@link #hasNext()} but not yet
 * taken); it is idempotent and may be called from any thread.
 *
 * <p><b>Threading.</b> The C stream is not thread-safe, so one call at a time: {@link #hasNext()} or
 * {@link #next()} made while another thread is inside {@code get_next} throws
 * {@link IllegalStateException} naming that thread, and never reaches C. {@link #close()} during such a
 * call is deferred until {@code get_next} returns; the call then releases what it got and throws
 * {@link IllegalStateException}.
 *
 * <p><b>Errors.</b> A non-zero code from {@code get_schema} or {@code get_next} is thrown as a
 * {@link StreamException} carrying the code and the text of {@code get_last_error}; when the stream is one
 * Quiver exported from a Java source in this JVM ({@link #exportTo}), its cause is what the source
 * threw, so the source's exception type and status survive the trip through C. An array whose
 * {@code device_type} differs from the stream's, or that breaks the spec, is released (exactly once) and
 * reported by {@link InvalidArrowException}. After any error the stream is failed: later calls throw
 * {@link IllegalStateException} with the first error as cause; only {@link #close()} remains to do.
 *
 * {@snippet class=dev.quiver.snippets.StreamSnippets region=import}
 */
public final class DeviceArrayStream implements Iterator<DeviceArray>, AutoCloseable {
    private static final long SIZE = ArrowDeviceArrayStreamLayout.LAYOUT.byteSize();
    private static final long SCRATCH_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();

    /** The C heap block holding the moved stream struct, then the struct {@code get_next} fills for a relayed array; freed on release. */
    private final long memory;
    private final MemorySegment struct;
    private final MemorySegment scratch;
    private final DeviceType deviceType;
    /** How each array of a C stream is imported; null for a Java source. */
    private final ImportOptions options;
    private final ProducerTrust trust;
    /** The Java source of a stream made in this JVM ({@link #of}), or null for a C stream. */
    private final ArraySource javaSource;
    private final CallGate gate = new CallGate();
    private Field schema;
    private DeviceArray pending;
    /** The last {@code get_next} pointer called, serialized by the gate like the calls. */
    private MemorySegment getNext = MemorySegment.NULL;
    private boolean ended;
    /** Arrays imported so far. */
    private long imported;
    private Throwable failure;

    private DeviceArrayStream(long memory, ImportOptions options) {
        this.memory = memory;
        this.struct = Pointers.bytes(MemorySegment.ofAddress(memory), SIZE);
        this.scratch = Pointers.bytes(MemorySegment.ofAddress(memory + SIZE), SCRATCH_SIZE);
        this.deviceType = DeviceType.of(struct.get(JAVA_INT, ArrowDeviceArrayStreamLayout.DEVICE_TYPE));
        // the trust an import would read from the environment for every array, read once for the stream
        this.trust = options.trust();
        this.options = options.trust(trust);
        this.javaSource = null;
    }

    private DeviceArrayStream(Field schema, DeviceType deviceType, ArraySource source) {
        this.memory = 0;
        this.struct = MemorySegment.NULL;
        this.scratch = MemorySegment.NULL;
        this.deviceType = Objects.requireNonNull(deviceType, "deviceType");
        this.options = null;
        this.trust = ProducerTrust.TRUSTED;
        this.schema = Objects.requireNonNull(schema, "schema");
        this.javaSource = source;
    }

    /**
     * A stream over arrays made in this JVM, with no C struct in between: the same class, ownership and
     * threading rules as an imported stream, for code that takes a {@code DeviceArrayStream} (a Flight server,
     * {@link #exportTo}). Each array the iterator returns moves to the consumer; an array on
     * another device type, or of another type than {@code schema}, is closed and fails the stream with an
     * {@link InvalidArrowException}; what the iterator throws fails the stream with a {@link StreamException}
     * whose code and message are those the same source behind a C stream would give, and whose cause is what it
     * threw. Closing the stream closes the iterator if it is {@link AutoCloseable}.
     *
     * {@snippet class=dev.quiver.snippets.StreamSnippets region=of}
     *
     * @param schema     the field every array has
     * @param deviceType the device type every array is on
     * @param source     the arrays, in order; pulled only from inside {@link #hasNext()} and {@link #next()}
     * @return the stream, owned by the caller
     */
    public static DeviceArrayStream of(Field schema, DeviceType deviceType, Iterator<? extends DeviceArray> source) {
        return new DeviceArrayStream(schema, deviceType, ArraySource.of(source));
    }

    /**
     * A stream over arrays a supplier makes in this JVM, as {@link #of(Field, DeviceType, Iterator)}; the supplier
     * returns null at the end.
     *
     * @param schema     the field every array has
     * @param deviceType the device type every array is on
     * @param source     makes the next array, or returns null at the end
     * @return the stream, owned by the caller
     */
    public static DeviceArrayStream of(Field schema, DeviceType deviceType, java.util.function.Supplier<? extends DeviceArray> source) {
        return new DeviceArrayStream(schema, deviceType, ArraySource.of(source));
    }

    /**
     * A stream over a {@link java.util.stream.Stream} of arrays made in this JVM, as
     * {@link #of(Field, DeviceType, Iterator)}: pulled lazily through its iterator, closed with this stream.
     *
     * @param schema     the field every array has
     * @param deviceType the device type every array is on
     * @param source     the arrays, in order
     * @return the stream, owned by the caller
     */
    public static DeviceArrayStream of(Field schema, DeviceType deviceType, java.util.stream.Stream<? extends DeviceArray> source) {
        return new DeviceArrayStream(schema, deviceType, ArraySource.of(source));
    }

    /**
     * Moves this stream out to a C consumer as a {@code struct ArrowDeviceArrayStream}: afterwards the consumer
     * owns it, pulls this stream's arrays through {@code get_next} (each array moves to the consumer; errors become
     * {@code errno} codes with a message), and its {@code release} closes this stream. Do not use this stream
     * after the call.
     *
     * {@snippet class=dev.quiver.snippets.StreamSnippets region=export}
     *
     * @param out 48 writable bytes for a {@code struct ArrowDeviceArrayStream}
     * @throws IllegalArgumentException if {@code out} is NULL
     */
    public void exportTo(MemorySegment out) {
        if (out.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("out is NULL");
        }
        if (javaSource != null && pending == null && imported == 0) {
            // an untouched Java door: its source goes to the consumer directly, with no second layer of checks
            if (!gate.close()) {
                throw new IllegalStateException("DeviceArrayStream is closed");
            }
            try {
                PullStreamExport.export(javaSource, schema, deviceType, out);
            } catch (RuntimeException | Error e) {
                try {
                    javaSource.close();
                } catch (Exception closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
            return;
        }
        PullStreamExport.export(ArraySource.of(this), schema(), deviceType, out);
    }

    /**
     * Moves this stream out as a plain {@code struct ArrowArrayStream} of the Arrow C stream interface, for
     * consumers that speak no C Device interface (DuckDB's {@code duckdb_arrow_scan}, PyArrow's
     * {@code RecordBatchReader._import_from_c}), with the rules of {@link #exportTo}. An array not in CPU memory
     * is copied to the host (and closed) or refused ({@code get_next} fails with EINVAL naming its device), as
     * {@code policy} says.
     *
     * @param out    40 writable bytes for a {@code struct ArrowArrayStream}
     * @param policy what to do with arrays not in CPU memory
     */
    public void exportPlain(MemorySegment out, dev.quiver.abi.PlainExport policy) {
        PlainStreamExport.export(this, schema(), out, policy);
    }


    /**
     * Another stream over this one's arrays, each passed through {@code mapper} as it is pulled (copied to a
     * device, filtered by a kernel, checked): the mapper owns the array it is given (it closes it, or returns it)
     * and returns the array the new stream hands out. Closing the new stream closes this one.
     *
     * @param schema     the field of the arrays the mapper returns
     * @param deviceType their device type
     * @param mapper     from each array of this stream to the array handed out; called on the pulling thread
     * @return the new stream, owned by the caller (this stream now belongs to it)
     */
    public DeviceArrayStream map(Field schema, DeviceType deviceType,
                                 java.util.function.Function<? super DeviceArray, ? extends DeviceArray> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        DeviceArrayStream source = this;
        return of(schema, deviceType, new MappedArrays(source, mapper));
    }

    /** The arrays of a stream, each through a mapper; closing closes the stream. */
    private record MappedArrays(DeviceArrayStream source,
                                java.util.function.Function<? super DeviceArray, ? extends DeviceArray> mapper)
            implements Iterator<DeviceArray>, AutoCloseable {
        @Override
        public boolean hasNext() {
            return source.hasNext();
        }

        @Override
        public DeviceArray next() {
            return Objects.requireNonNull(mapper.apply(source.next()), "the mapper returned null");
        }

        @Override
        public void close() {
            source.close();
        }
    }

    /**
     * Moves a stream of the plain Arrow C stream interface ({@code struct ArrowArrayStream}, CPU arrays, as
     * DuckDB, DataFusion, Polars and PyArrow hand them out) in, as a stream of CPU arrays, with every check and
     * the same ownership as {@link #importFrom(MemorySegment, ImportOptions)}.
     *
     * @param stream  a live {@code struct ArrowArrayStream*}; left released (release NULL)
     * @param options where the arrays find backends, how far the schema's and arrays' pointers are trusted,
     *                whether the arrays refuse writes
     * @return the stream, owned by the caller
     * @throws StreamException if {@code get_schema} fails; the stream was released
     * @throws InvalidArrowException if the struct or its schema breaks the spec; the stream was released
     * @throws IllegalArgumentException if {@code options} set a CUDA Array Interface release or consumer stream
     */
    public static DeviceArrayStream importPlain(MemorySegment stream, ImportOptions options) {
        DescriptorOptions.refuse(options, "a C stream carries its own release callback and each array its sync_event");
        MemorySegment adapter = NativeHeap.calloc(SIZE);
        try {
            PlainStreamImport.adapt(stream, adapter);
            return importFrom(adapter, options);
        } finally {
            NativeHeap.free(adapter);
        }
    }

    /**
     * Moves a C stream in, with {@link ImportOptions#defaults()}.
     *
     * @param stream a live {@code struct ArrowDeviceArrayStream*}; left released (release NULL)
     * @return the stream, owned by the caller
     * @throws StreamException if {@code get_schema} fails; the stream was released
     * @throws InvalidArrowException if the struct or its schema breaks the spec; the stream was released
     */
    public static DeviceArrayStream importFrom(MemorySegment stream) {
        return importFrom(stream, ImportOptions.defaults());
    }

    /**
     * Moves a C stream in, trusting its schema's and arrays' pointers as far as the options say (the producer's
     * error messages are always read through checked memory, at most
     * {@value dev.quiver.internal.abi.NativeCalls#MAX_MESSAGE_BYTES} bytes).
     *
     * @param stream  a live {@code struct ArrowDeviceArrayStream*}; left released (release NULL)
     * @param options where the arrays find backends for events and copies, how far the schema's and arrays'
     *                pointers are trusted, whether the arrays refuse writes
     * @return the stream, owned by the caller
     * @throws StreamException if {@code get_schema} fails; the stream was released
     * @throws InvalidArrowException if the struct or its schema breaks the spec; the stream was released
     * @throws IllegalArgumentException if {@code options} set a CUDA Array Interface release or consumer stream;
     *                                  checked before anything is moved
     */
    public static DeviceArrayStream importFrom(MemorySegment stream, ImportOptions options) {
        DescriptorOptions.refuse(options, "a C stream carries its own release callback and each array its sync_event");
        if (stream.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("stream pointer is NULL");
        }
        MemorySegment from = Pointers.bytes(stream, SIZE);
        if (from.get(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE).equals(MemorySegment.NULL)) {
            throw new InvalidArrowException("release", "is NULL: the stream was already released or moved");
        }
        long memory = NativeHeap.malloc(SIZE + SCRATCH_SIZE);
        MemorySegment own = Pointers.bytes(MemorySegment.ofAddress(memory), SIZE);
        own.copyFrom(from);
        from.set(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE, MemorySegment.NULL);
        DeviceArrayStream result = new DeviceArrayStream(memory, options);
        try {
            requireCallback(own, ArrowDeviceArrayStreamLayout.GET_SCHEMA, "get_schema");
            requireCallback(own, ArrowDeviceArrayStreamLayout.GET_NEXT, "get_next");
            requireCallback(own, ArrowDeviceArrayStreamLayout.GET_LAST_ERROR, "get_last_error");
            result.schema = result.readSchema();
            return result;
        } catch (RuntimeException | Error e) {
            result.close();
            throw e;
        }
    }

    private static void requireCallback(MemorySegment stream, long offset, String name) {
        if (stream.get(ADDRESS, offset).equals(MemorySegment.NULL)) {
            throw new InvalidArrowException(name, "is NULL but the callback is mandatory");
        }
    }

    private Field readSchema() {
        try (Arena scratchArena = Arena.ofConfined()) {
            MemorySegment out = scratchArena.allocate(ArrowSchemaLayout.LAYOUT);
            int code = NativeCalls.callInt(struct.get(ADDRESS, ArrowDeviceArrayStreamLayout.GET_SCHEMA), struct, out);
            if (code != 0) {
                throw new StreamException(code, "get_schema: " + lastError());
            }
            try {
                return SchemaReader.read(out, "schema", Faults.of(InvalidArrowException::new, trust == ProducerTrust.UNTRUSTED));
            } finally {
                ReleaseCallbacks.releaseSchemaStruct(out);
            }
        }
    }

    private String lastError() {
        String message = NativeCalls.string(NativeCalls.callPointer(struct.get(ADDRESS, ArrowDeviceArrayStreamLayout.GET_LAST_ERROR), struct));
        return message == null ? "the producer gave no description (get_last_error returned NULL)" : message;
    }

    /** {@return the schema every array of the stream has} */
    public Field schema() {
        return schema;
    }

    /** {@return the device type every array of the stream is on ({@code device_type})} */
    public DeviceType deviceType() {
        return deviceType;
    }

    /**
     * Fetches the next array from C unless one is waiting.
     *
     * @return false at the end of the stream
     * @throws StreamException          if {@code get_next} failed
     * @throws InvalidArrowException    if the array broke the spec or is on another device type; it was released
     * @throws IllegalStateException    if the stream is closed or failed, or another thread is using it
     */
    @Override
    public boolean hasNext() {
        return advance(0);
    }

    private void closedDuringCall() {
        discardAndRelease();
        throw new IllegalStateException("the stream was closed by another thread while get_next ran; what it returned was released");
    }

    /**
     * @return the next array, owned by the caller (close it); it stays valid after the stream is closed
     * @throws NoSuchElementException at the end of the stream
     */
    @Override
    public DeviceArray next() {
        DeviceArray out = poll();
        if (out == null) {
            throw new NoSuchElementException("end of the ArrowDeviceArrayStream");
        }
        return out;
    }

    /**
     * {@link #hasNext()} and {@link #next()} in one call into the gate: the next array, owned by the caller,
     * or null at the end of the stream.
     */
    DeviceArray poll() {
        if (!advance(0)) {
            return null;
        }
        DeviceArray out = pending;
        pending = null;
        return out;
    }

    /**
     * Relays the next array without importing it: fetches it from C, makes the checks an import makes
     * (device type, structs against the schema, with this stream's trust), and moves it into {@code out},
     * whose owner then releases it. An array fetched by {@link #hasNext()} and waiting is moved out instead.
     * One call into the gate; the same threading and failure rules as {@link #next()}.
     *
     * @param out the address of 128 writable bytes for a {@code struct ArrowDeviceArray}, not 0
     * @return false at the end of the stream ({@code out} untouched)
     * @throws InvalidArrowException if the array broke the spec or is on another device type; it was released
     */
    boolean pollInto(long out) {
        return advance(out);
    }

    /**
     * One call into the gate: fetches the next array from C unless one is waiting and, if {@code relayTo}
     * is not 0, moves it there instead of keeping it waiting.
     *
     * @param relayTo where to move the next array without importing it, or 0 to keep it waiting as a DeviceArray
     * @return false at the end of the stream
     */
    private boolean advance(long relayTo) {
        enter();
        boolean relayed = false;
        try {
            if (relayTo == 0) {
                if (pending == null && !ended) {
                    pending = fetch();
                }
                return pending != null;
            }
            if (pending == null && javaSource != null && !ended) {
                pending = fetchJava();
            }
            if (pending != null) {
                DeviceArray waiting = pending;
                pending = null;
                Interchange.exportDevice(waiting, MemorySegment.ofAddress(relayTo), MemorySegment.NULL);
            } else if (ended || javaSource != null || !fetchRaw(scratch.address())) {
                return false;
            } else {
                relay(relayTo);
            }
            relayed = true;
            return true;
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            if (gate.exit()) {
                try {
                    if (relayed) {
                        // the call fails, so the consumer will not release what it was about to get
                        ReleaseCallbacks.releaseArrayStruct(relayTo + ArrowDeviceArrayLayout.ARRAY);
                    }
                } finally {
                    closedDuringCall();
                }
            }
        }
    }

    /** Checks the array in the scratch struct as an import would, then moves it to {@code out}; on a fault releases it. */
    private void relay(long out) {
        try {
            ArrayAccess.checkImported(scratch.address(), schema, trust);
        } catch (RuntimeException | Error e) {
            try {
                ReleaseCallbacks.releaseArrayStruct(scratch.address() + ArrowDeviceArrayLayout.ARRAY);
            } catch (RuntimeException releaseFault) {
                e.addSuppressed(releaseFault);
            }
            throw e;
        }
        RawMemory.copyWords(scratch.address(), out, SCRATCH_SIZE);
    }

    private void enter() {
        switch (gate.enter()) {
            case BUSY -> {
                Thread holder = gate.holder();
                throw new IllegalStateException("DeviceArrayStream is in use by another thread"
                        + (holder == null ? "" : " (\"" + holder.getName() + "\")")
                        + ": ArrowDeviceArrayStream calls must be serialized");
            }
            case CLOSED -> throw new IllegalStateException("DeviceArrayStream is closed");
            case ENTERED -> {
                if (failure != null) {
                    if (gate.exit()) {
                        closedDuringCall();
                    }
                    throw new IllegalStateException("DeviceArrayStream failed earlier; only close() remains", failure);
                }
            }
        }
    }

    private DeviceArray fetch() {
        if (javaSource != null) {
            return fetchJava();
        }
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
        return fetched ? BatchEvents.imported(event, BatchEvents.PULL_IMPORT, imported++, ArrayAccess.importFetched(block, schema, options)) : null;
    }
        
    /** Takes the next array of the Java source and checks it against the stream's device type and schema. */
    private DeviceArray fetchJava() {
        DeviceArray array;
        try {
            array = javaSource.next();
        } catch (Exception | OutOfMemoryError e) {
            // as the same source behind a C stream would fail: its errno code, and the source's exception as cause
            StreamException failed = new StreamException(ErrorCodes.codeFor(e),
                    "get_next: the Java source failed at array " + imported + ": " + ErrorCodes.messageFor(e));
            failed.initCause(e);
            throw failed;
        }
        if (array == null) {
            ended = true;
            return null;
        }
        if (!array.deviceType().equals(deviceType) || !ArrayChecks.sameTypes(schema, array.field())) {
            String found = array.deviceType() + " " + array.field();
            array.close();
            throw new InvalidArrowException("", "array " + imported + " of the source is " + found + ", not " + deviceType
                    + " " + schema + " as the stream says; it was closed");
        }
        imported++;
        return array;
    }

    /**
     * Calls {@code get_next} into the struct at {@code into} and checks the device type.
     *
     * @param into the address of 128 writable bytes: the scratch struct, or a block for an array to own
     * @return false at the end of the stream (then {@link #ended} is set); true if {@code into} holds a live
     *         array of the stream's device type, which the caller then owns
     */
    private boolean fetchRaw(long into) {
        // a producer that returns without writing leaves release NULL: read as the end of the stream
        RawMemory.setAddress(into + ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE, 0);
        MemorySegment target = Pointers.bytes(MemorySegment.ofAddress(into), SCRATCH_SIZE);
        int code = NativeCalls.callInt(getNext(), struct, target);
        boolean released = RawMemory.getAddress(into + ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE) == 0;
        if (code != 0) {
            String detail = lastError();
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
            ended = true;
            return false;
        }
        ArrayChecks.requireDeviceType(target, deviceType, "stream");
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

    /** {@return true once {@link #close()} was called} */
    public boolean isClosed() {
        return gate.isClosed();
    }

    /**
     * Releases the C stream exactly once, and an array fetched by {@link #hasNext()} but never taken.
     * Arrays already taken stay valid. Idempotent; any thread.
     */
    @Override
    public void close() {
        if (gate.close()) {
            discardAndRelease();
        }
    }

    private void discardAndRelease() {
        DeviceArray waiting = pending;
        pending = null;
        try {
            if (waiting != null) {
                waiting.close();
            }
        } finally {
            releaseStream();
        }
    }

    private void releaseStream() {
        if (javaSource != null) {
            try {
                javaSource.close();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("closing the source of " + this + " failed: " + e.getMessage(), e);
            }
            return;
        }
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

    @Override
    public String toString() {
        return "DeviceArrayStream " + deviceType + " \"" + (schema == null ? "?" : schema.name()) + "\"" + (isClosed() ? " (closed)" : "");
    }
}
