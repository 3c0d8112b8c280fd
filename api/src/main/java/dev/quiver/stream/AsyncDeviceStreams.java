package dev.quiver.stream;

import dev.quiver.bridge.DescriptorOptions;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.ProducerTrust;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The async device stream of the Arrow C Device Data Interface ({@code ArrowAsyncDeviceStreamHandler},
 * {@code ArrowAsyncProducer}, {@code ArrowAsyncTask}), in both directions, bridged to
 * {@link java.util.concurrent.Flow}. Struct layouts follow the upstream header {@code abi.h} where the
 * specification's text differs: its listing shows a {@code release} member in {@code ArrowAsyncProducer} that the
 * header does not have (the producer is cleaned up by its owner after the handler's {@code release}), so the
 * producer is 40 bytes, {@code additional_metadata} at 24 and {@code private_data} at 32.
 *
 * <h2>Java publisher, C consumer: {@link #exportTo}</h2>
 * The C consumer allocates a handler and keeps owning it; Quiver sets {@code handler->producer} to an
 * {@code ArrowAsyncProducer} it owns, calls {@code on_schema} (a new ArrowSchema the consumer must move
 * or release), subscribes to the publisher, and turns the consumer's {@code request(n)} into
 * {@link Flow.Subscription#request} (back-pressure: at most the requested number of {@code on_next_task}
 * calls). Each array is offered as an {@code ArrowAsyncTask}; its {@code extract_data} moves the array
 * into the consumer's ArrowDeviceArray, or with a NULL array discards and releases it; an unextracted
 * task keeps its array until it is extracted. The end of the stream is {@code on_next_task(NULL)}, then
 * {@code release}. A publisher error becomes {@code on_error(code, message, metadata)} (codes as in
 * {@link DeviceArrayStream#exportTo}; metadata is the {@link StreamException}'s, else
 * {@code quiver.exception=<class>}), then {@code release}. {@code request(n)} with {@code n <= 0} is an
 * EINVAL error through {@code on_error}. {@code cancel} is idempotent and thread-safe, cancels the
 * publisher and leads to {@code release} without {@code on_error}. A non-zero return from
 * {@code on_schema} or {@code on_next_task} stops the stream: the publisher is cancelled and
 * {@code release} follows, without {@code on_error}. The producer struct is freed only after
 * {@code release} returned. All handler callbacks run one at a time on the given executor, never inside
 * the consumer's {@code request} or {@code cancel}.
 *
 * <h2>C producer, Java subscriber: {@link #importProducer}</h2>
 * Quiver allocates and owns the handler; the C producer calls it from its own threads. The subscriber's
 * {@code onSubscribe} comes from inside {@code on_schema} with a {@link DeviceArraySubscription} (schema,
 * device type, additional metadata); {@code onNext} comes from inside {@code on_next_task} with an array
 * the subscriber owns (and must close). Signals are serialized and never nested, even if a producer
 * calls back from inside {@code request}. Failures on the Java side (an invalid schema or array, an array
 * on another device type, a failing {@code extract_data}) are returned to the producer as {@code errno}
 * codes and signalled as {@code onError}; the producer's {@code on_error} becomes {@code onError} with a
 * {@link StreamException} carrying code, message and metadata. After {@code cancel()} arriving tasks are
 * extracted with a NULL array (discarded), and the subscriber gets no further signal at all: neither
 * {@code onComplete} when the producer ends the stream nor {@code onError} when it reports the cancel (or
 * anything else), whichever thread cancelled and whenever the producer's signal arrives (Flow's rule 3.12
 * lets a publisher stop signalling; Quiver always does). The one exception is {@code request(n)} with
 * {@code n <= 0}, which cancels and signals {@code onError} as Flow's rule 3.9 demands. Quiver never calls the producer after the handler's
 * {@code release}, and {@code release} waits for calls that are running.
 */
public final class AsyncDeviceStreams {
    private AsyncDeviceStreams() {}

    /**
     * Exports a publisher to a C consumer's handler, running handler callbacks on new virtual threads
     * (one at a time), without additional metadata.
     *
     * @param publisher  the arrays; each must be on {@code deviceType} and of {@code schema}'s type
     * @param schema     the stream's schema
     * @param deviceType the stream's device type ({@code producer->device_type})
     * @param handler    a live {@code struct ArrowAsyncDeviceStreamHandler*}, still owned by the consumer
     * @return completes when the handler was released: normally at the end of the stream or after the
     *         consumer's cancel; exceptionally with the publisher's error, or a {@link StreamException}
     *         for an error code from the consumer or a bad {@code request}
     */
    public static CompletableFuture<Void> exportTo(Flow.Publisher<? extends DeviceArray> publisher, Field schema,
                                                   DeviceType deviceType, MemorySegment handler) {
        return exportTo(publisher, schema, deviceType, handler, Map.of(), command -> Thread.ofVirtual().name("quiver-async-producer").start(command));
    }

    /**
     * Exports a publisher to a C consumer's handler.
     *
     * @param publisher          the arrays
     * @param schema             the stream's schema
     * @param deviceType         the stream's device type
     * @param handler            a live {@code struct ArrowAsyncDeviceStreamHandler*}, still owned by the consumer
     * @param additionalMetadata {@code producer->additional_metadata} (empty for NULL), valid until release
     * @param executor           where handler callbacks run, one at a time; it must not run the task on
     *                           the calling thread if the consumer may call {@code request} while holding
     *                           a lock its callbacks need
     * @return as {@link #exportTo(Flow.Publisher, Field, DeviceType, MemorySegment)}
     */
    public static CompletableFuture<Void> exportTo(Flow.Publisher<? extends DeviceArray> publisher, Field schema,
                                                   DeviceType deviceType, MemorySegment handler,
                                                   Map<String, String> additionalMetadata, Executor executor) {
        Objects.requireNonNull(publisher, "publisher");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(deviceType, "deviceType");
        Objects.requireNonNull(additionalMetadata, "additionalMetadata");
        Objects.requireNonNull(executor, "executor");
        if (handler.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("handler is NULL");
        }
        return PublisherExport.start(publisher, schema, deviceType, handler, additionalMetadata, executor).copy();
    }

    /**
     * A publisher over a C producer, with arrays that use {@link Devices#system()}.
     *
     * @param start gives the handler to the C producer (for example by calling its {@code start(handler)}
     *              function); called once, on the subscribing thread
     * @return a publisher that accepts one subscriber
     */
    public static Flow.Publisher<DeviceArray> importProducer(Consumer<MemorySegment> start) {
        return importProducer(start, ImportOptions.defaults());
    }

    /**
     * A publisher over a C producer. Each {@link Flow.Publisher#subscribe} after the first gets
     * {@code onError(IllegalStateException)}: a handler belongs to one producer run.
     *
     * @param start   gives the handler (a {@code struct ArrowAsyncDeviceStreamHandler*} Quiver owns) to
     *                the C producer; if it throws, the subscriber gets {@code onError} with what it threw
     * @param options where the arrays find backends for events and copies, how far the schema's and arrays'
     *                pointers are trusted (error messages are always read through checked memory), whether the
     *                arrays refuse writes
     * @return a publisher that accepts one subscriber
     * @throws IllegalArgumentException if {@code options} set a CUDA Array Interface release or consumer stream
     */
    public static Flow.Publisher<DeviceArray> importProducer(Consumer<MemorySegment> start, ImportOptions options) {
        Objects.requireNonNull(start, "start");
        DescriptorOptions.refuse(options, "an asynchronous producer's arrays carry their own release callback and sync_event");
        AtomicBoolean used = new AtomicBoolean();
        return subscriber -> {
            Objects.requireNonNull(subscriber, "subscriber");
            if (used.compareAndSet(false, true)) {
                ProducerImport.subscribe(subscriber, options, start);
            } else {
                subscriber.onSubscribe(new Flow.Subscription() {
                    @Override
                    public void request(long n) {
                        // already failed
                    }

                    @Override
                    public void cancel() {
                        // already failed
                    }
                });
                subscriber.onError(new IllegalStateException("this publisher over a C producer was subscribed to already"));
            }
        };
    }
}
