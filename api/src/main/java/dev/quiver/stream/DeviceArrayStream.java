package dev.quiver.stream;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.ImportOptions;
import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.PlainExport;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A stream of {@link DeviceArray}s of one schema on one device type, consumed as an {@link Iterator}: either a
 * {@code struct ArrowDeviceArrayStream} moved in from C ({@link #importFrom}, {@link #importPlain}) or arrays made
 * in this JVM ({@link #of}), with the same ownership, threading and error rules for both. A sealed type: the
 * two kinds are its only implementations, and callers see no difference between them.
 *
 * <p><b>Ownership.</b> {@link #importFrom} moves the stream struct in (the producer's struct is left
 * released) and reads its schema once. {@link #next()} hands out arrays that the caller owns and must
 * close; they outlive the stream, so closing the stream does not close them. {@link #close()} calls the
 * stream's {@code release} exactly once (or closes the Java source of a stream made by {@link #of}), and closes
 * an array fetched by {@link #hasNext()} but not yet taken; it is idempotent and may be called from any thread.
 *
 * <p><b>Threading.</b> The C stream is not thread-safe, so one call at a time: {@link #hasNext()} or
 * {@link #next()} made while another thread is inside {@code get_next} (or the Java source) throws
 * {@link IllegalStateException} naming that thread, and never reaches C. {@link #close()} during such a
 * call is deferred until the call returns; the call then releases what it got and throws
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
public sealed abstract class DeviceArrayStream implements Iterator<DeviceArray>, AutoCloseable
        permits CArrayStream, JavaArrayStream {
    private final Field schema;
    private final DeviceType deviceType;
    /** Serializes the calls and defers a close that comes during one; the kinds use it for nothing else. */
    final CallGate gate = new CallGate();
    /** An array fetched by {@link #hasNext()} and not yet taken; written only inside the gate. */
    private DeviceArray pending;
    private boolean ended;
    private Throwable failure;

    DeviceArrayStream(Field schema, DeviceType deviceType) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.deviceType = Objects.requireNonNull(deviceType, "deviceType");
    }

    /**
     * A stream over arrays made in this JVM, with no C struct in between: the same type, ownership and
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
        return new JavaArrayStream(schema, deviceType, ArraySource.of(source));
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
    public static DeviceArrayStream of(Field schema, DeviceType deviceType, Supplier<? extends DeviceArray> source) {
        return new JavaArrayStream(schema, deviceType, ArraySource.of(source));
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
    public static DeviceArrayStream of(Field schema, DeviceType deviceType, Stream<? extends DeviceArray> source) {
        return new JavaArrayStream(schema, deviceType, ArraySource.of(source));
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
        return CArrayStream.openPlain(stream, options);
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
        return CArrayStream.open(stream, options);
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
        export(out);
    }

    /**
     * Fills {@code out} (not NULL) with a stream that pulls this one; a kind with a shorter way overrides it.
     *
     * @param out 48 writable bytes
     */
    void export(MemorySegment out) {
        PullStreamExport.export(ArraySource.of(this), schema, deviceType, out);
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
    public void exportPlain(MemorySegment out, PlainExport policy) {
        PlainStreamExport.export(this, schema, out, policy);
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
    public DeviceArrayStream map(Field schema, DeviceType deviceType, Function<? super DeviceArray, ? extends DeviceArray> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return of(schema, deviceType, new MappedArrays(this, mapper));
    }

    /** The arrays of a stream, each through a mapper; closing closes the stream. */
    private record MappedArrays(DeviceArrayStream source, Function<? super DeviceArray, ? extends DeviceArray> mapper)
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

    /** {@return the schema every array of the stream has} */
    public Field schema() {
        return schema;
    }

    /** {@return the device type every array of the stream is on ({@code device_type})} */
    public DeviceType deviceType() {
        return deviceType;
    }

    /**
     * Fetches the next array unless one is waiting.
     *
     * @return false at the end of the stream
     * @throws StreamException          if {@code get_next} (or the Java source) failed
     * @throws InvalidArrowException    if the array broke the spec or is on another device type; it was released
     * @throws IllegalStateException    if the stream is closed or failed, or another thread is using it
     */
    @Override
    public boolean hasNext() {
        return advance(0);
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
     * Relays the next array without importing it where the kind can (a C stream's array is checked as an import
     * checks it and moved as it is), and moves it into {@code out}, whose owner then releases it. An array
     * fetched by {@link #hasNext()} and waiting is moved out instead. One call into the gate; the same threading
     * and failure rules as {@link #next()}.
     *
     * @param out the address of 128 writable bytes for a {@code struct ArrowDeviceArray}, not 0
     * @return false at the end of the stream ({@code out} untouched)
     * @throws InvalidArrowException if the array broke the spec or is on another device type; it was released
     */
    boolean pollInto(long out) {
        return advance(out);
    }

    /**
     * The next array of the kind, checked against the stream's device type and schema. Called inside the gate.
     *
     * @return the array, owned by the caller; null at the end of the stream
     */
    abstract DeviceArray fetch();

    /**
     * Moves the next array of the kind into {@code out}, checked as {@link #fetch()} checks it. Called inside the
     * gate.
     *
     * @param out the address of 128 writable bytes for a {@code struct ArrowDeviceArray}
     * @return false at the end of the stream ({@code out} then holds no live array)
     */
    abstract boolean fetchInto(long out);

    /** Frees what the kind holds (the C stream, or the Java source); called once, by the thread that closes. */
    abstract void release();

    /**
     * One call into the gate: fetches the next array unless one is waiting and, if {@code relayTo} is not 0,
     * moves it there instead of keeping it waiting.
     *
     * @param relayTo where to move the next array, or 0 to keep it waiting as a DeviceArray
     * @return false at the end of the stream
     */
    private boolean advance(long relayTo) {
        enter();
        boolean relayed = false;
        try {
            if (relayTo == 0) {
                if (pending == null && !ended) {
                    pending = fetch();
                    ended = pending == null;
                }
                return pending != null;
            }
            if (pending != null) {
                DeviceArray waiting = pending;
                pending = null;
                Interchange.exportDevice(waiting, MemorySegment.ofAddress(relayTo), MemorySegment.NULL);
            } else if (ended || !fetchInto(relayTo)) {
                ended = true;
                return false;
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

    private void closedDuringCall() {
        discardAndRelease();
        throw new IllegalStateException("the stream was closed by another thread while get_next ran; what it returned was released");
    }

    /** {@return true once {@link #close()} was called} */
    public boolean isClosed() {
        return gate.isClosed();
    }

    /**
     * Releases the C stream exactly once (or closes the Java source), and an array fetched by {@link #hasNext()}
     * but never taken. Arrays already taken stay valid. Idempotent; any thread.
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
            release();
        }
    }

    @Override
    public String toString() {
        return "DeviceArrayStream " + deviceType + " \"" + schema.name() + "\"" + (isClosed() ? " (closed)" : "");
    }
}
