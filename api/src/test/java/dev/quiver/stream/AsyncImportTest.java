package dev.quiver.stream;

import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Diagnostics;
import dev.quiver.InvalidArrowException;
import dev.quiver.internal.abi.ArrowAsyncDeviceStreamHandlerLayout;
import dev.quiver.internal.abi.NativeCalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A C async device stream producer ({@code async_producer.c}, pushing from a pthread it creates) consumed as
 * a {@link Flow.Publisher} by a Java subscriber.
 */
class AsyncImportTest {
    private static final int CPU = DeviceType.CPU.code();
    private static final int MADE = 0;
    private static final int ARRAYS_RELEASED = 1;
    private static final int SCHEMAS_RELEASED = 2;
    private static final int TASKS_SENT = 3;
    private static final int EXTRACTED = 4;
    private static final int DISCARDED = 5;
    private static final int NOT_EXTRACTED = 6;
    private static final int REQUEST_CALLS = 7;
    private static final int REQUESTS_IN_CALLBACK = 8;
    private static final int CANCEL_CALLS = 9;
    private static final int CALLS_AFTER_RELEASE = 10;
    private static final int ON_SCHEMA_CODE = 11;
    private static final int ON_NEXT_TASK_CODE = 12;
    private static final int RELEASED = 13;
    private static final int ENDED = 14;
    private static final int ERRORS_SENT = 15;

    private final List<MemorySegment> producers = new ArrayList<>();
    private final long handlersBefore = ProducerImport.HANDLERS.size();
    private final long callbackFailuresBefore = Diagnostics.callbackFailures();

    @AfterEach
    void nothingLeftBehind() {
        for (MemorySegment p : producers) {
            StreamC.call(() -> {
                StreamC.ASYNC_PRODUCER_JOIN.invokeExact(p);
                return null;
            });
            assertEquals(1, stat(p, RELEASED), "the producer released the handler");
            assertEquals(1, stat(p, SCHEMAS_RELEASED), "the schema was released exactly once");
            assertEquals(stat(p, MADE), stat(p, ARRAYS_RELEASED), "every array C made was released exactly once");
            assertEquals(0, stat(p, NOT_EXTRACTED), "every task was extracted inside on_next_task");
            assertEquals(0, stat(p, CALLS_AFTER_RELEASE), "Java never called the producer after release");
            StreamC.call(() -> {
                StreamC.ASYNC_PRODUCER_FREE.invokeExact(p);
                return null;
            });
        }
        assertEquals(handlersBefore, ProducerImport.HANDLERS.size(), "every handler was released");
        assertEquals(callbackFailuresBefore, Diagnostics.callbackFailures(), "no upcall failed");
    }

    /** Starts a C producer thread on the handler when the publisher is subscribed to. */
    private Flow.Publisher<DeviceArray> producer(long batches, long mismatchAt, long invalidAt, long errorAt, int errorCode, boolean badSchema) {
        return producer(batches, mismatchAt, invalidAt, errorAt, errorCode, badSchema, false);
    }

    private Flow.Publisher<DeviceArray> producer(long batches, long mismatchAt, long invalidAt, long errorAt, int errorCode,
                                                 boolean badSchema, boolean reentrant) {
        return AsyncDeviceStreams.importProducer(handler -> producers.add(StreamC.call(() ->
                (MemorySegment) StreamC.ASYNC_PRODUCER_START.invokeExact(handler, batches, CPU, mismatchAt, invalidAt,
                        errorAt, errorCode, badSchema ? 1 : 0, reentrant ? 1 : 0))), ImportOptions.on(Batches.NO_BACKENDS));
    }

    private static long stat(MemorySegment producer, int which) {
        return StreamC.call(() -> (long) StreamC.ASYNC_PRODUCER_STAT.invokeExact(producer, which));
    }

    private MemorySegment joined() {
        MemorySegment p = producers.getFirst();
        StreamC.call(() -> {
            StreamC.ASYNC_PRODUCER_JOIN.invokeExact(p);
            return null;
        });
        return p;
    }

    @Test
    void tenThousandBatchesPushedFromANativeThread() throws Exception {
        RecordingSubscriber subscriber = new RecordingSubscriber(1, -1);
        producer(10_000, -1, -1, -1, 0, false).subscribe(subscriber);
        assertTrue(subscriber.awaitTerminated());
        MemorySegment p = joined();
        assertEquals(List.of(), subscriber.errors);
        assertEquals(1, subscriber.completions.get(), "the NULL task completes the subscriber");
        assertEquals(10_000, subscriber.received.get());
        assertEquals(0, subscriber.wrongValues.get());
        assertEquals(0, subscriber.overlapping.get(), "signals never overlapped or nested");
        assertNotSame(Thread.currentThread(), subscriber.nextThreads.getFirst(), "onNext runs on the producer's thread");
        assertEquals(Batches.SCHEMA, subscriber.subscription.schema());
        assertEquals(DeviceType.CPU, subscriber.subscription.deviceType());
        assertEquals(Map.of("batches", "10000"), subscriber.subscription.additionalMetadata());
        assertEquals(10_000, stat(p, TASKS_SENT));
        assertEquals(10_000, stat(p, EXTRACTED));
        assertEquals(10_000, stat(p, MADE));
        assertEquals(10_000, stat(p, ARRAYS_RELEASED));
        assertEquals(1, stat(p, ENDED));
        assertEquals(stat(p, REQUEST_CALLS), stat(p, REQUESTS_IN_CALLBACK), "every request came from inside on_schema or on_next_task");
        assertTrue(stat(p, REQUEST_CALLS) >= 10_000);
    }

    @Test
    void aProducerThatCallsOnNextTaskFromInsideRequestStillGetsSerializedUnnestedSignals() throws Exception {
        RecordingSubscriber subscriber = new RecordingSubscriber(1, -1);
        producer(2_000, -1, -1, -1, 0, false, true).subscribe(subscriber);
        assertTrue(subscriber.awaitTerminated());
        MemorySegment p = joined();
        assertEquals(List.of(), subscriber.errors);
        assertEquals(1, subscriber.completions.get());
        assertEquals(2_000, subscriber.received.get());
        assertEquals(0, subscriber.wrongValues.get());
        assertEquals(0, subscriber.overlapping.get(), "onSubscribe/onNext/onComplete never nested, though the producer nested its calls");
        assertEquals(2_000, stat(p, EXTRACTED));
    }

    @Test
    void cancelMidwayStopsTheProducerWhichDiscardsNothingAndReleases() throws Exception {
        RecordingSubscriber subscriber = new RecordingSubscriber(1, 5);
        producer(1_000, -1, -1, -1, 0, false).subscribe(subscriber);
        assertTrue(subscriber.cancelled.await(30, TimeUnit.SECONDS));
        MemorySegment p = joined();
        assertEquals(5, subscriber.received.get());
        assertEquals(1, stat(p, CANCEL_CALLS), "cancel() twice calls the producer's cancel once");
        assertEquals(0, stat(p, ENDED));
        assertEquals(List.of(), subscriber.errors, "no signal after cancel");
        assertEquals(0, subscriber.completions.get());
        assertEquals(0, stat(p, DISCARDED));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "producer after cancel: {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2})
    void afterCancelTheSubscriberGetsNoTerminalSignalWhateverTheProducerSends(int afterCancel) throws Exception {
        StreamC.call(() -> {
            StreamC.ASYNC_PRODUCER_AFTER_CANCEL.invokeExact(afterCancel);
            return null;
        });
        try {
            RecordingSubscriber subscriber = new RecordingSubscriber(1, 5);
            producer(1_000, -1, -1, -1, 0, false).subscribe(subscriber);
            assertTrue(subscriber.cancelled.await(30, TimeUnit.SECONDS));
            MemorySegment p = joined();
            assertEquals(afterCancel == 1 ? 1 : 0, stat(p, ENDED), "the producer ended the stream after the cancel");
            assertEquals(5, subscriber.received.get());
            assertEquals(List.of(), subscriber.errors, "no onError after cancel, even when the producer reports one");
            assertEquals(0, subscriber.completions.get(), "no onComplete after cancel, even when the producer ends the stream");
            assertEquals(1, stat(p, RELEASED), "the producer released the handler");
        } finally {
            StreamC.call(() -> {
                StreamC.ASYNC_PRODUCER_AFTER_CANCEL.invokeExact(0);
                return null;
            });
        }
    }

    @Test
    void cancelWithTasksInFlightExtractsThemIntoNullToDiscard() throws Exception {
        RecordingSubscriber subscriber = new RecordingSubscriber(50, 5);
        producer(1_000, -1, -1, -1, 0, false).subscribe(subscriber);
        assertTrue(subscriber.cancelled.await(30, TimeUnit.SECONDS));
        MemorySegment p = joined();
        assertEquals(5, subscriber.received.get(), "nothing is delivered after cancel");
        assertEquals(49, stat(p, DISCARDED), "the 49 tasks still requested (50 + 4 - 5) were finished out and discarded");
        assertEquals(stat(p, TASKS_SENT), stat(p, EXTRACTED) + stat(p, DISCARDED), "every task was extracted or discarded");
        assertEquals(List.of(), subscriber.errors);
    }

    @Test
    void theProducersOnErrorArrivesWithCodeMessageAndMetadata() throws Exception {
        RecordingSubscriber subscriber = new RecordingSubscriber(1, -1);
        producer(10, -1, -1, 3, Errno.EIO.code(), false).subscribe(subscriber);
        assertTrue(subscriber.awaitTerminated());
        assertEquals(3, subscriber.received.get());
        StreamException e = assertInstanceOf(StreamException.class, subscriber.errors.getFirst());
        assertEquals(Errno.EIO, e.errno().orElseThrow());
        assertTrue(e.detail().orElseThrow().contains("injected producer failure at batch 3"), e.getMessage());
        assertEquals(Map.of("batch", "3"), e.metadata());
        assertEquals(1, subscriber.errors.size());
        assertEquals(1, stat(joined(), ERRORS_SENT));
    }

    @Test
    void anInvalidSchemaIsReturnedAsEinvalFromOnSchema() throws Exception {
        RecordingSubscriber subscriber = new RecordingSubscriber(1, -1);
        producer(10, -1, -1, -1, 0, true).subscribe(subscriber);
        assertTrue(subscriber.awaitTerminated());
        InvalidArrowException e = assertInstanceOf(InvalidArrowException.class, subscriber.errors.getFirst());
        assertEquals("schema.format", e.fieldPath());
        MemorySegment p = joined();
        assertEquals(Errno.EINVAL.code(), stat(p, ON_SCHEMA_CODE));
        assertEquals(0, stat(p, TASKS_SENT));
    }

    @Test
    void anArrayOnAnotherDeviceTypeIsReturnedAsEinvalAndReleasedOnce() throws Exception {
        RecordingSubscriber subscriber = new RecordingSubscriber(1, -1);
        producer(10, 2, -1, -1, 0, false).subscribe(subscriber);
        assertTrue(subscriber.awaitTerminated());
        assertEquals(2, subscriber.received.get());
        InvalidArrowException e = assertInstanceOf(InvalidArrowException.class, subscriber.errors.getFirst());
        assertEquals("device_type", e.fieldPath());
        MemorySegment p = joined();
        assertEquals(Errno.EINVAL.code(), stat(p, ON_NEXT_TASK_CODE));
        assertEquals(0, stat(p, ERRORS_SENT), "the producer calls no on_error after the consumer's error code");
        assertEquals(3, stat(p, MADE));
    }

    @Test
    void anInvalidArrayIsReturnedAsEinvalAndReleasedOnce() throws Exception {
        RecordingSubscriber subscriber = new RecordingSubscriber(1, -1);
        producer(10, -1, 0, -1, 0, false).subscribe(subscriber);
        assertTrue(subscriber.awaitTerminated());
        assertInstanceOf(InvalidArrowException.class, subscriber.errors.getFirst());
        MemorySegment p = joined();
        assertEquals(Errno.EINVAL.code(), stat(p, ON_NEXT_TASK_CODE));
        assertEquals(1, stat(p, MADE));
    }

    @Test
    void requestOfZeroCancelsTheProducerAndSignalsIllegalArgument() throws Exception {
        RecordingSubscriber subscriber = new RecordingSubscriber(0, -1);
        producer(10, -1, -1, -1, 0, false).subscribe(subscriber);
        assertTrue(subscriber.awaitTerminated());
        assertInstanceOf(IllegalArgumentException.class, subscriber.errors.getFirst());
        MemorySegment p = joined();
        assertEquals(1, stat(p, CANCEL_CALLS));
        assertEquals(0, stat(p, REQUEST_CALLS), "n <= 0 never reaches the producer");
    }

    @Test
    void aSecondSubscriberIsRefused() throws Exception {
        Flow.Publisher<DeviceArray> publisher = producer(3, -1, -1, -1, 0, false);
        RecordingSubscriber first = new RecordingSubscriber(1, -1);
        publisher.subscribe(first);
        RecordingSubscriber second = new RecordingSubscriber(1, -1);
        publisher.subscribe(second);
        assertInstanceOf(IllegalStateException.class, second.errors.getFirst());
        assertTrue(first.awaitTerminated());
        assertEquals(3, first.received.get());
        assertEquals(1, producers.size(), "only one producer was started");
    }

    @Test
    void aFailingStartSignalsOnError() throws Exception {
        RecordingSubscriber subscriber = new RecordingSubscriber(1, -1);
        AtomicReference<MemorySegment> handler = new AtomicReference<>();
        AsyncDeviceStreams.importProducer(h -> {
            handler.set(h);
            throw new IllegalStateException("no producer today");
        }, ImportOptions.on(Batches.NO_BACKENDS)).subscribe(subscriber);
        assertTrue(subscriber.awaitTerminated());
        assertEquals("no producer today", subscriber.errors.getFirst().getMessage());
        // what a producer that never ran must still do: release the handler it was given
        MemorySegment h = handler.get().reinterpret(ArrowAsyncDeviceStreamHandlerLayout.LAYOUT.byteSize());
        NativeCalls.callVoid(h.get(ValueLayout.ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.RELEASE), h);
        assertEquals(1, subscriber.errors.size(), "the release adds no second signal");
    }
}
