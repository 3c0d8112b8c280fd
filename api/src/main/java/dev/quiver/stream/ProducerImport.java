package dev.quiver.stream;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.InvalidArrowException;
import dev.quiver.ProducerTrust;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.abi.ArrowAsyncDeviceStreamHandlerLayout;
import dev.quiver.internal.abi.ArrowAsyncProducerLayout;
import dev.quiver.internal.abi.ArrowAsyncTaskLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.CallbackErrors;
import dev.quiver.internal.abi.IdTable;
import dev.quiver.internal.abi.NativeCalls;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.internal.events.StreamBatchEvent;
import dev.quiver.internal.events.Recorder;
import dev.quiver.internal.validate.Faults;
import dev.quiver.internal.validate.SchemaReader;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.Map;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * One subscription to a C async device stream producer: the {@code ArrowAsyncDeviceStreamHandler} Quiver
 * allocates (its {@code private_data} an id into {@link #HANDLERS}), its four callbacks, and the
 * {@link DeviceArraySubscription} the Java subscriber gets.
 *
 * <p>Signals to the subscriber go through a trampolining {@link SerialDrain}: they run on the producer's
 * thread inside its callback when nothing else runs, and are queued otherwise, so the subscriber never
 * sees two signals at once or one nested in another, even if a producer breaks the rules. Arrays are
 * extracted inside {@code on_next_task} (the task is only valid there); failures there are returned as
 * codes, and the subscriber gets the matching {@code onError}.
 */
final class ProducerImport implements DeviceArraySubscription {
    static final IdTable<ProducerImport> HANDLERS = new IdTable<>();

    /** The upcall stubs, made once on first import. */
    private static final class Stubs {
        static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
        static final MemorySegment ON_SCHEMA = NativeCalls.upcall(LOOKUP, ProducerImport.class, "onSchema", NativeCalls.INT_PTR_PTR);
        static final MemorySegment ON_NEXT_TASK = NativeCalls.upcall(LOOKUP, ProducerImport.class, "onNextTask", NativeCalls.INT_PTR_PTR_PTR);
        static final MemorySegment ON_ERROR = NativeCalls.upcall(LOOKUP, ProducerImport.class, "onError", NativeCalls.VOID_PTR_INT_PTR_PTR);
        static final MemorySegment RELEASE = NativeCalls.upcall(LOOKUP, ProducerImport.class, "release", NativeCalls.VOID_PTR);
    }

    private final Flow.Subscriber<? super DeviceArray> subscriber;
    private final ImportOptions options;
    private final ProducerTrust trust;
    private final Arena memory = Arena.ofShared();
    private final MemorySegment handler;
    private final SerialDrain signals = new SerialDrain(Runnable::run, "async device stream subscriber");
    private final ProducerCalls calls = new ProducerCalls();
    private final AtomicBoolean terminated = new AtomicBoolean();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicBoolean schemaSeen = new AtomicBoolean();
    private volatile MemorySegment producer = MemorySegment.NULL;
    private volatile Field schema;
    private volatile DeviceType deviceType;
    private volatile Map<String, String> additionalMetadata = Map.of();
    private boolean subscribed; // confined to the signal drain
    private boolean signalledEnd; // confined to the signal drain: onComplete or onError was delivered

    private ProducerImport(Flow.Subscriber<? super DeviceArray> subscriber, ImportOptions options) {
        this.subscriber = subscriber;
        this.options = options;
        this.trust = options.trust();
        this.handler = memory.allocate(ArrowAsyncDeviceStreamHandlerLayout.LAYOUT);
        handler.set(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.ON_SCHEMA, Stubs.ON_SCHEMA);
        handler.set(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.ON_NEXT_TASK, Stubs.ON_NEXT_TASK);
        handler.set(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.ON_ERROR, Stubs.ON_ERROR);
        handler.set(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.RELEASE, Stubs.RELEASE);
        handler.set(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.PRODUCER, MemorySegment.NULL);
        handler.set(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.PRIVATE_DATA, HANDLERS.register(this));
    }

    /** Makes the handler and gives it to {@code start}, which hands it to the C producer. */
    static void subscribe(Flow.Subscriber<? super DeviceArray> subscriber, ImportOptions options, Consumer<MemorySegment> start) {
        ProducerImport stream = new ProducerImport(subscriber, options);
        try {
            // a view without the arena's scope: a producer may release the handler from inside start
            start.accept(Pointers.bytes(MemorySegment.ofAddress(stream.handler.address()), stream.handler.byteSize()));
        } catch (Throwable t) {
            stream.terminate(t);
        }
    }

    // ---- the producer's calls into the handler (its threads) ------------------------------------------

    /** Our {@code on_schema}. Never throws. */
    static int onSchema(MemorySegment self, MemorySegment schemaStruct) {
        try {
            ProducerImport stream = lookup(self);
            if (stream == null) {
                ReleaseCallbacks.releaseSchemaStruct(Pointers.struct(schemaStruct, ArrowSchemaLayout.LAYOUT));
                return Errno.EINVAL.code();
            }
            return stream.schemaArrived(Pointers.struct(schemaStruct, ArrowSchemaLayout.LAYOUT));
        } catch (Throwable t) {
            CallbackErrors.record("ArrowAsyncDeviceStreamHandler.on_schema", t);
            return Errno.EIO.code();
        }
    }

    /** Our {@code on_next_task}. Never throws. */
    static int onNextTask(MemorySegment self, MemorySegment task, MemorySegment metadata) {
        try {
            ProducerImport stream = lookup(self);
            if (stream == null) {
                return Errno.EINVAL.code();
            }
            return stream.taskArrived(task);
        } catch (Throwable t) {
            CallbackErrors.record("ArrowAsyncDeviceStreamHandler.on_next_task", t);
            return Errno.EIO.code();
        }
    }

    /** Our {@code on_error}: copies the message and metadata, then signals {@code onError}. Never throws. */
    static void onError(MemorySegment self, int code, MemorySegment message, MemorySegment metadata) {
        try {
            ProducerImport stream = lookup(self);
            if (stream != null) {
                Map<String, String> decoded = SchemaReader.metadata(metadata, "on_error.metadata", InvalidArrowException::new).toMap();
                stream.terminate(new StreamException(code == 0 ? Errno.EIO.code() : code,
                        "the producer reported: " + NativeCalls.string(message), decoded));
            }
        } catch (Throwable t) {
            CallbackErrors.record("ArrowAsyncDeviceStreamHandler.on_error", t);
        }
    }

    /** Our {@code release}: waits for running producer calls, ends the subscription, frees the handler. */
    static void release(MemorySegment self) {
        try {
            if (self.equals(MemorySegment.NULL)) {
                return;
            }
            MemorySegment struct = Pointers.struct(self, ArrowAsyncDeviceStreamHandlerLayout.LAYOUT);
            ProducerImport stream = HANDLERS.remove(struct.get(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.PRIVATE_DATA));
            if (stream == null) {
                return;
            }
            struct.set(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.RELEASE, MemorySegment.NULL);
            stream.released();
        } catch (Throwable t) {
            CallbackErrors.record("ArrowAsyncDeviceStreamHandler.release", t);
        }
    }

    private static ProducerImport lookup(MemorySegment self) {
        if (self.equals(MemorySegment.NULL)) {
            return null;
        }
        return HANDLERS.get(Pointers.struct(self, ArrowAsyncDeviceStreamHandlerLayout.LAYOUT)
                .get(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.PRIVATE_DATA));
    }

    private int schemaArrived(MemorySegment schemaStruct) {
        Field field;
        try {
            if (!schemaSeen.compareAndSet(false, true)) {
                throw new StreamException(Errno.EINVAL, "on_schema was called a second time (it must be called exactly once)");
            }
            MemorySegment producerPointer = handler.get(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.PRODUCER);
            if (producerPointer.equals(MemorySegment.NULL)) {
                throw new InvalidArrowException("producer", "is NULL in on_schema (the producer must set it before any callback)");
            }
            MemorySegment p = Pointers.struct(producerPointer, ArrowAsyncProducerLayout.LAYOUT);
            if (p.get(ADDRESS, ArrowAsyncProducerLayout.REQUEST).equals(MemorySegment.NULL)
                    || p.get(ADDRESS, ArrowAsyncProducerLayout.CANCEL).equals(MemorySegment.NULL)) {
                throw new InvalidArrowException("producer.request", "or producer.cancel is NULL (both are mandatory)");
            }
            additionalMetadata = SchemaReader.metadata(p.get(ADDRESS, ArrowAsyncProducerLayout.ADDITIONAL_METADATA), "producer.additional_metadata", InvalidArrowException::new).toMap();
            deviceType = DeviceType.of(p.get(JAVA_INT, ArrowAsyncProducerLayout.DEVICE_TYPE));
            field = SchemaReader.read(schemaStruct, "schema", Faults.of(InvalidArrowException::new, trust == ProducerTrust.UNTRUSTED));
            producer = p;
        } catch (RuntimeException e) {
            terminate(e);
            return ErrorCodes.codeFor(e);
        } finally {
            ReleaseCallbacks.releaseSchemaStruct(schemaStruct);
        }
        schema = field;
        signals.submit(this::deliverSubscribe);
        return 0;
    }

    private int taskArrived(MemorySegment taskPointer) {
        if (taskPointer.equals(MemorySegment.NULL)) {
            if (terminated.compareAndSet(false, true)) {
                signals.submit(() -> {
                    deliverSubscribe();
                    signalledEnd = true;
                    if (!cancelled.get()) {
                        subscriber.onComplete();
                    }
                });
            }
            return 0;
        }
        MemorySegment task = Pointers.struct(taskPointer, ArrowAsyncTaskLayout.LAYOUT);
        MemorySegment extract = task.get(ADDRESS, ArrowAsyncTaskLayout.EXTRACT_DATA);
        if (schema == null) {
            NativeCalls.callInt(extract, task, MemorySegment.NULL); // discard: lets the producer clean up
            terminate(new StreamException(Errno.EINVAL, "on_next_task was called before on_schema succeeded"));
            return Errno.EINVAL.code();
        }
        if (terminated.get() || cancelled.get()) {
            return NativeCalls.callInt(extract, task, MemorySegment.NULL); // discard: lets the producer clean up
        }
        DeviceArray array;
        StreamBatchEvent event = Recorder.streamBatch();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ArrowDeviceArrayLayout.LAYOUT);
            int code = NativeCalls.callInt(extract, task, out);
            if (code != 0) {
                terminate(new StreamException(code, "the producer's extract_data failed"));
                return code;
            }
            array = BatchEvents.imported(event, BatchEvents.ASYNC_IMPORT, -1, importArray(out));
        } catch (RuntimeException e) {
            terminate(e);
            return ErrorCodes.codeFor(e);
        }
        signals.submit(() -> deliverNext(array));
        return 0;
    }

    private DeviceArray importArray(MemorySegment out) {
        if (out.get(ADDRESS, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE).equals(MemorySegment.NULL)) {
            throw new InvalidArrowException("array.release", "is NULL after extract_data returned 0 (no array was produced)");
        }
        ArrayChecks.requireDeviceType(out, deviceType, "producer");
        return Interchange.importDevice(out, schema, options);
    }

    private void released() {
        calls.closeAndAwait();
        if (!cancelled.get()) {
            terminate(new StreamException(Errno.EIO, "the producer released the handler before the end of the stream"));
        }
        memory.close();
    }

    /** Signals {@code onError} once, unless a terminal signal was decided already. */
    private void terminate(Throwable failure) {
        if (terminated.compareAndSet(false, true)) {
            signals.submit(() -> {
                deliverSubscribe();
                signalledEnd = true;
                if (!cancelled.get()) {
                    subscriber.onError(failure);
                }
            });
        }
    }

    // ---- inside the signal drain ----------------------------------------------------------------------

    private void deliverSubscribe() {
        if (!subscribed) {
            subscribed = true;
            subscriber.onSubscribe(this);
        }
    }

    /** Delivers an array queued before any end signal; after cancel or the end it is released instead. */
    private void deliverNext(DeviceArray array) {
        if (signalledEnd || cancelled.get()) {
            array.close();
            return;
        }
        try {
            subscriber.onNext(array);
        } catch (Throwable t) {
            CallbackErrors.record("Flow.Subscriber.onNext (the subscriber threw; the stream is cancelled)", t);
            cancel();
        }
    }

    // ---- the subscriber's calls (any thread) ----------------------------------------------------------

    @Override
    public void request(long n) {
        if (terminated.get() || cancelled.get()) {
            return;
        }
        if (n <= 0) {
            cancel();
            if (terminated.compareAndSet(false, true)) {
                signals.submit(() -> {
                    signalledEnd = true;
                    subscriber.onError(new IllegalArgumentException("request(n) needs n > 0, got " + n + " (Flow rule 3.9)"));
                });
            }
            return;
        }
        if (calls.enter()) {
            try {
                MemorySegment p = producer;
                NativeCalls.callVoid(p.get(ADDRESS, ArrowAsyncProducerLayout.REQUEST), p, n);
            } finally {
                calls.exit();
            }
        }
    }

    @Override
    public void cancel() {
        if (!cancelled.compareAndSet(false, true) || terminated.get()) {
            return;
        }
        if (calls.enter()) {
            try {
                MemorySegment p = producer;
                NativeCalls.callVoid(p.get(ADDRESS, ArrowAsyncProducerLayout.CANCEL), p);
            } finally {
                calls.exit();
            }
        }
    }

    @Override
    public Field schema() {
        return schema;
    }

    @Override
    public DeviceType deviceType() {
        return deviceType;
    }

    @Override
    public Map<String, String> additionalMetadata() {
        return additionalMetadata;
    }
}
