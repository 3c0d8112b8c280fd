package dev.quiver.stream;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.InvalidArrowException;
import dev.quiver.internal.abi.ArrowAsyncDeviceStreamHandlerLayout;
import dev.quiver.internal.abi.ArrowAsyncProducerLayout;
import dev.quiver.internal.abi.ArrowAsyncTaskLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.CallbackErrors;
import dev.quiver.internal.abi.IdTable;
import dev.quiver.internal.abi.NativeCalls;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.internal.events.StreamBatchEvent;
import dev.quiver.internal.events.Recorder;
import dev.quiver.type.Field;
import dev.quiver.type.Metadata;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A Java {@link Flow.Publisher} acting as the producer of an async device stream for a C consumer's
 * {@code ArrowAsyncDeviceStreamHandler}. Quiver owns the {@code ArrowAsyncProducer} (freed only after the
 * handler's {@code release} returned) and the tasks' state; the producer's and tasks' {@code private_data}
 * are ids into {@link #PRODUCERS} and {@link #TASKS}.
 *
 * <p>Every handler callback and every call on the upstream subscription runs inside one {@link SerialDrain}
 * on the given executor: never concurrently, never inside the consumer's {@code request} or
 * {@code cancel}, which only queue work and return.
 */
final class PublisherExport implements Flow.Subscriber<DeviceArray> {
    static final IdTable<PublisherExport> PRODUCERS = new IdTable<>();
    static final IdTable<Task> TASKS = new IdTable<>();

    /** A task handed to the consumer and not yet extracted, with its array's position in the stream. */
    record Task(DeviceArray array, PublisherExport owner, long index) {}

    /** The upcall stubs, made once on first export. */
    private static final class Stubs {
        static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
        static final MemorySegment REQUEST = NativeCalls.upcall(LOOKUP, PublisherExport.class, "request", NativeCalls.VOID_PTR_LONG);
        static final MemorySegment CANCEL = NativeCalls.upcall(LOOKUP, PublisherExport.class, "cancel", NativeCalls.VOID_PTR);
        static final MemorySegment EXTRACT = NativeCalls.upcall(LOOKUP, PublisherExport.class, "extractData", NativeCalls.INT_PTR_PTR);
    }

    private final Flow.Publisher<? extends DeviceArray> publisher;
    private final Field schema;
    private final DeviceType deviceType;
    private final MemorySegment handler;
    private final Arena memory = Arena.ofShared();
    private final MemorySegment producer;
    private final MemorySegment task;
    private final SerialDrain drain;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final MemorySegment producerId;
    // confined to the drain:
    private Flow.Subscription upstream;
    private long demandBeforeSubscribe;
    private boolean finished;
    private long index;

    private PublisherExport(Flow.Publisher<? extends DeviceArray> publisher, Field schema, DeviceType deviceType,
                            MemorySegment handler, Map<String, String> additionalMetadata, Executor executor) {
        this.publisher = publisher;
        this.schema = schema;
        this.deviceType = deviceType;
        this.handler = handler;
        this.drain = new SerialDrain(executor, "async device stream producer");
        this.producer = memory.allocate(ArrowAsyncProducerLayout.LAYOUT);
        this.task = memory.allocate(ArrowAsyncTaskLayout.LAYOUT);
        this.producerId = PRODUCERS.register(this);
        producer.set(JAVA_INT, ArrowAsyncProducerLayout.DEVICE_TYPE, deviceType.code());
        producer.set(ADDRESS, ArrowAsyncProducerLayout.REQUEST, Stubs.REQUEST);
        producer.set(ADDRESS, ArrowAsyncProducerLayout.CANCEL, Stubs.CANCEL);
        producer.set(ADDRESS, ArrowAsyncProducerLayout.ADDITIONAL_METADATA, StructWriter.metadata(memory, Metadata.of(additionalMetadata)));
        producer.set(ADDRESS, ArrowAsyncProducerLayout.PRIVATE_DATA, producerId);
        task.set(ADDRESS, ArrowAsyncTaskLayout.EXTRACT_DATA, Stubs.EXTRACT);
    }

    /** Sets {@code handler->producer} and starts: {@code on_schema} runs on the executor. */
    static CompletableFuture<Void> start(Flow.Publisher<? extends DeviceArray> publisher, Field schema, DeviceType deviceType,
                                         MemorySegment handler, Map<String, String> additionalMetadata, Executor executor) {
        MemorySegment struct = Pointers.struct(handler, ArrowAsyncDeviceStreamHandlerLayout.LAYOUT);
        requireCallback(struct, ArrowAsyncDeviceStreamHandlerLayout.ON_SCHEMA, "on_schema");
        requireCallback(struct, ArrowAsyncDeviceStreamHandlerLayout.ON_NEXT_TASK, "on_next_task");
        requireCallback(struct, ArrowAsyncDeviceStreamHandlerLayout.ON_ERROR, "on_error");
        requireCallback(struct, ArrowAsyncDeviceStreamHandlerLayout.RELEASE, "release");
        PublisherExport export = new PublisherExport(publisher, schema, deviceType, struct, additionalMetadata, executor);
        struct.set(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.PRODUCER, export.producer);
        export.submit(export::sendSchema);
        return export.done;
    }

    private static void requireCallback(MemorySegment handler, long offset, String name) {
        if (handler.get(ADDRESS, offset).equals(MemorySegment.NULL)) {
            throw new InvalidArrowException("handler." + name, "is NULL (every handler callback is mandatory)");
        }
    }

    // ---- the consumer's calls into the producer (any thread): queue and return -------------------------

    /** Our {@code request(self, n)}. Never throws; never calls the handler itself. */
    static void request(MemorySegment self, long n) {
        try {
            PublisherExport export = lookup(self);
            if (export != null && !export.cancelled.get()) {
                export.submit(() -> export.requested(n));
            }
        } catch (Throwable t) {
            CallbackErrors.record("ArrowAsyncProducer.request", t);
        }
    }

    /** Our {@code cancel(self)}: idempotent, thread-safe; never followed by {@code on_error}. Never throws. */
    static void cancel(MemorySegment self) {
        try {
            PublisherExport export = lookup(self);
            if (export != null && export.cancelled.compareAndSet(false, true)) {
                export.submit(export::cancelled);
            }
        } catch (Throwable t) {
            CallbackErrors.record("ArrowAsyncProducer.cancel", t);
        }
    }

    /** Our {@code extract_data(task, out)}: moves the array out, or discards it when {@code out} is NULL. */
    static int extractData(MemorySegment self, MemorySegment out) {
        try {
            if (self.equals(MemorySegment.NULL)) {
                return Errno.EINVAL.code();
            }
            Task task = TASKS.remove(Pointers.struct(self, ArrowAsyncTaskLayout.LAYOUT).get(ADDRESS, ArrowAsyncTaskLayout.PRIVATE_DATA));
            if (task == null) {
                return Errno.EINVAL.code();
            }
            try {
                if (out.equals(MemorySegment.NULL)) {
                    task.array().close();
                } else {
                    StreamBatchEvent event = Recorder.streamBatch();
                    long length = event == null ? 0 : task.array().length();
                    Interchange.exportDevice(task.array(), out, MemorySegment.NULL);
                    BatchEvents.exported(event, BatchEvents.ASYNC_EXPORT, task.index(), task.array(), length);
                }
                return 0;
            } catch (Throwable t) {
                task.array().close();
                task.owner().submit(() -> task.owner().failed(t));
                return ErrorCodes.codeFor(t);
            }
        } catch (Throwable t) {
            CallbackErrors.record("ArrowAsyncTask.extract_data", t);
            return Errno.EIO.code();
        }
    }

    private static PublisherExport lookup(MemorySegment self) {
        if (self.equals(MemorySegment.NULL)) {
            return null;
        }
        return PRODUCERS.get(Pointers.struct(self, ArrowAsyncProducerLayout.LAYOUT).get(ADDRESS, ArrowAsyncProducerLayout.PRIVATE_DATA));
    }

    // ---- the publisher's signals (any thread): queue ------------------------------------------------

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        submit(() -> subscribed(subscription));
    }

    @Override
    public void onNext(DeviceArray item) {
        submit(() -> deliver(item));
    }

    @Override
    public void onError(Throwable throwable) {
        submit(() -> failed(throwable));
    }

    @Override
    public void onComplete() {
        submit(this::completed);
    }

    // ---- inside the drain -----------------------------------------------------------------------------

    /** Queues {@code action}; if it throws, the stream fails with what it threw (unless it is over). */
    private void submit(Runnable action) {
        drain.submit(() -> {
            try {
                action.run();
            } catch (Throwable t) {
                CallbackErrors.record("async device stream producer", t);
                if (!finished) {
                    failed(t);
                }
            }
        });
    }

    private void sendSchema() {
        if (cancelled.get()) {
            finish(null);
            return;
        }
        MemorySegment out = memory.allocate(ArrowSchemaLayout.LAYOUT);
        StructWriter.writeSchema(out, schema);
        int code = NativeCalls.callInt(handler.get(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.ON_SCHEMA), handler, out);
        ReleaseCallbacks.releaseSchemaStruct(out); // a no-op when the consumer moved or released it, as it must
        if (code != 0) {
            finish(new StreamException(code, "the consumer's on_schema returned an error"));
            return;
        }
        publisher.subscribe(this);
    }

    private void subscribed(Flow.Subscription subscription) {
        if (upstream != null || finished) {
            subscription.cancel();
            return;
        }
        upstream = subscription;
        if (demandBeforeSubscribe > 0) {
            long n = demandBeforeSubscribe;
            demandBeforeSubscribe = 0;
            subscription.request(n);
        }
    }

    private void requested(long n) {
        if (finished || cancelled.get()) {
            return;
        }
        if (n <= 0) {
            cancelUpstream();
            sendError(new StreamException(Errno.EINVAL, "request(n) needs n > 0, got " + n));
            return;
        }
        if (upstream == null) {
            demandBeforeSubscribe = demandBeforeSubscribe + n < 0 ? Long.MAX_VALUE : demandBeforeSubscribe + n;
        } else {
            upstream.request(n);
        }
    }

    private void cancelled() {
        if (!finished) {
            cancelUpstream();
            finish(null);
        }
    }

    private void deliver(DeviceArray array) {
        if (finished || cancelled.get()) {
            array.close();
            return;
        }
        try {
            ArrayChecks.check(array, schema, deviceType, index);
        } catch (StreamException e) {
            array.close();
            cancelUpstream();
            sendError(e);
            return;
        }
        index++;
        MemorySegment id = TASKS.register(new Task(array, this, index - 1));
        task.set(ADDRESS, ArrowAsyncTaskLayout.PRIVATE_DATA, id);
        int code = NativeCalls.callInt(handler.get(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.ON_NEXT_TASK), handler, task, MemorySegment.NULL);
        if (code != 0) {
            cancelUpstream();
            finish(new StreamException(code, "the consumer's on_next_task returned an error at array " + (index - 1)));
        }
    }

    private void completed() {
        if (finished) {
            return;
        }
        if (!cancelled.get()) {
            NativeCalls.callInt(handler.get(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.ON_NEXT_TASK), handler, MemorySegment.NULL, MemorySegment.NULL);
        }
        finish(null);
    }

    private void failed(Throwable failure) {
        if (finished) {
            return;
        }
        if (cancelled.get()) {
            finish(null); // a successful cancel is never followed by on_error
            return;
        }
        cancelUpstream();
        sendError(failure);
    }

    private void sendError(Throwable failure) {
        Map<String, String> metadata = failure instanceof StreamException e && !e.metadata().isEmpty()
                ? e.metadata() : Map.of("quiver.exception", failure.getClass().getName());
        try (Arena call = Arena.ofConfined()) {
            NativeCalls.callVoid(handler.get(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.ON_ERROR), handler,
                    ErrorCodes.codeFor(failure), call.allocateFrom(ErrorCodes.messageFor(failure)), StructWriter.metadata(call, Metadata.of(metadata)));
        }
        finish(failure);
    }

    private void cancelUpstream() {
        if (upstream != null) {
            upstream.cancel();
        }
    }

    /** Releases the handler, then frees the producer struct: the order the specification demands. */
    private void finish(Throwable failure) {
        finished = true;
        try {
            NativeCalls.callVoid(handler.get(ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.RELEASE), handler);
        } finally {
            PRODUCERS.remove(producerId);
            memory.close();
            if (failure == null) {
                done.complete(null);
            } else {
                done.completeExceptionally(failure);
            }
        }
    }
}
