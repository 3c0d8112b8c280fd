package dev.quiver.stream;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Diagnostics;
import dev.quiver.InvalidArrowException;
import dev.quiver.internal.abi.ArrowAsyncDeviceStreamHandlerLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A Java {@link Flow.Publisher} exported as an async device stream producer to a C consumer ({@code async_consumer.c}). */
class AsyncExportTest {
    private static final int CPU = DeviceType.CPU.code();
    private static final int SCHEMA_OK = 0;
    private static final int TASKS = 1;
    private static final int ARRAYS_OK = 2;
    private static final int ARRAYS_RELEASED = 3;
    private static final int DISCARDED = 4;
    private static final int EXTRACT_FAILURES = 5;
    private static final int END_SEEN = 6;
    private static final int ERRORS = 7;
    private static final int ERROR_CODE = 8;
    private static final int ERRORS_AFTER_CANCEL = 9;
    private static final int OVERLAPPING_CALLBACKS = 10;
    private static final int CALLBACKS_AFTER_RELEASE = 11;
    private static final int PRODUCER_DEVICE_TYPE = 12;
    private static final int RELEASED = 13;
    private static final int TASKS_AFTER_END = 15;

    private final List<MemorySegment> consumers = new ArrayList<>();
    private final List<CompletableFuture<Void>> exports = new ArrayList<>();

    /** Exports and remembers the future, which completes once the producer is freed after the handler's release. */
    private CompletableFuture<Void> export(java.util.concurrent.Flow.Publisher<? extends dev.quiver.DeviceArray> publisher,
                                           dev.quiver.type.Field schema, DeviceType type, MemorySegment handler) {
        CompletableFuture<Void> done = AsyncDeviceStreams.exportTo(publisher, schema, type, handler);
        exports.add(done);
        return done;
    }
    private long exportsBefore;
    private long producersBefore;
    private long tasksBefore;

    private long callbackFailuresBefore;

    @BeforeEach
    void baseline() {
        callbackFailuresBefore = Diagnostics.callbackFailures();
        exportsBefore = Diagnostics.liveExports();
        producersBefore = PublisherExport.PRODUCERS.size();
        tasksBefore = PublisherExport.TASKS.size();
    }

    @AfterEach
    void nothingLeftBehind() {
        for (CompletableFuture<Void> done : exports) {
            try {
                done.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException expected) {
                // some tests end the stream with an error on purpose
            } catch (Exception e) {
                throw new AssertionError("an export did not finish", e);
            }
        }
        assertEquals(callbackFailuresBefore, Diagnostics.callbackFailures(), "no upcall failed");
        for (MemorySegment c : consumers) {
            assertEquals(1, stat(c, RELEASED), "the handler was released exactly once");
            assertEquals(0, stat(c, OVERLAPPING_CALLBACKS), "handler callbacks never overlapped or nested");
            assertEquals(0, stat(c, CALLBACKS_AFTER_RELEASE), "no callback after release");
            assertEquals(0, stat(c, TASKS_AFTER_END));
            assertEquals(0, stat(c, EXTRACT_FAILURES));
            StreamC.call(() -> {
                StreamC.ASYNC_CONSUMER_FREE.invokeExact(c);
                return null;
            });
        }
        assertEquals(exportsBefore, Diagnostics.liveExports(), "every exported array and schema was released");
        assertEquals(producersBefore, PublisherExport.PRODUCERS.size(), "every producer was freed");
        assertEquals(tasksBefore, PublisherExport.TASKS.size(), "every task was extracted");
    }

    private MemorySegment consumer(int deviceType, long firstRequest, long cancelAt, long failAt, int failCode, long discardEvery) {
        MemorySegment c = StreamC.call(() -> (MemorySegment) StreamC.ASYNC_CONSUMER_NEW.invokeExact(deviceType, firstRequest,
                cancelAt, failAt, failCode, discardEvery));
        consumers.add(c);
        return c;
    }

    private MemorySegment consumer() {
        return consumer(CPU, 1, -1, -1, 0, 0);
    }

    private static long stat(MemorySegment consumer, int which) {
        return StreamC.call(() -> (long) StreamC.ASYNC_CONSUMER_STAT.invokeExact(consumer, which));
    }

    private static String text(MemorySegment consumer, int which) {
        return StreamC.string(StreamC.call(() -> (MemorySegment) StreamC.ASYNC_CONSUMER_TEXT.invokeExact(consumer, which)));
    }

    private static void awaitRelease(MemorySegment consumer) {
        assertEquals(0, StreamC.call(() -> (int) StreamC.ASYNC_CONSUMER_WAIT.invokeExact(consumer, 30_000L)), "the handler was released in time");
    }

    private static Throwable failure(CompletableFuture<Void> done) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> done.get(30, TimeUnit.SECONDS));
        return e.getCause();
    }

    @Test
    void tenThousandBatchesRequestedOneAtATimeFromInsideOnNextTask() throws Exception {
        MemorySegment c = consumer();
        RangePublisher publisher = new RangePublisher(10_000, Batches::batch);
        CompletableFuture<Void> done = AsyncDeviceStreams.exportTo(publisher, Batches.SCHEMA, DeviceType.CPU, c,
                Map.of("rows", "30000"), command -> Thread.ofVirtual().start(command));
        exports.add(done);
        awaitRelease(c);
        assertNull(done.get(30, TimeUnit.SECONDS));
        assertEquals(1, stat(c, SCHEMA_OK));
        assertEquals(CPU, stat(c, PRODUCER_DEVICE_TYPE));
        assertEquals("rows=30000", text(c, 2), "additional_metadata");
        assertEquals(10_000, stat(c, TASKS));
        assertEquals(10_000, stat(c, ARRAYS_OK));
        assertEquals(10_000, stat(c, ARRAYS_RELEASED), "C released each array once, and each release marked it released");
        assertEquals(1, stat(c, END_SEEN), "the end of the stream is a NULL task");
        assertEquals(0, stat(c, ERRORS));
        assertEquals(10_000, publisher.emitted.get(), "back-pressure: nothing made beyond what was requested");
    }

    @Test
    void extractingIntoNullDiscardsTheArray() {
        MemorySegment c = consumer(CPU, 1, -1, -1, 0, 3);
        export(new RangePublisher(30, Batches::batch), Batches.SCHEMA, DeviceType.CPU, c);
        awaitRelease(c);
        assertEquals(30, stat(c, TASKS));
        assertEquals(10, stat(c, DISCARDED));
        assertEquals(20, stat(c, ARRAYS_OK));
        assertEquals("", text(c, 2), "no additional_metadata: NULL");
    }

    @Test
    void cancelMidwayIsIdempotentThreadSafeAndNeverFollowedByOnError() throws Exception {
        MemorySegment c = consumer(CPU, 1, 5, -1, 0, 0);
        RangePublisher publisher = new RangePublisher(1_000, Batches::batch);
        CompletableFuture<Void> done = export(publisher, Batches.SCHEMA, DeviceType.CPU, c);
        awaitRelease(c);
        assertNull(done.get(30, TimeUnit.SECONDS), "a consumer's cancel is a normal end");
        assertEquals(5, stat(c, TASKS));
        assertEquals(5, stat(c, ARRAYS_OK));
        assertEquals(0, stat(c, ERRORS));
        assertEquals(0, stat(c, ERRORS_AFTER_CANCEL));
        assertEquals(0, stat(c, END_SEEN));
        assertTrue(publisher.cancelled.get(), "the publisher was cancelled");
    }

    @Test
    void aPublisherErrorReachesOnErrorWithCodeMessageAndMetadata() {
        MemorySegment c = consumer();
        RangePublisher publisher = new RangePublisher(10, Batches::batch, 4,
                () -> new StreamException(Errno.ENOSPC.code(), "disk full", Map.of("batch", "4")));
        CompletableFuture<Void> done = export(publisher, Batches.SCHEMA, DeviceType.CPU, c);
        awaitRelease(c);
        assertEquals(4, stat(c, ARRAYS_OK));
        assertEquals(1, stat(c, ERRORS));
        assertEquals(Errno.ENOSPC.code(), stat(c, ERROR_CODE));
        assertEquals("disk full", text(c, 0));
        assertEquals("batch=4", text(c, 1));
        assertInstanceOf(StreamException.class, failure(done));
    }

    @Test
    void anyOtherExceptionBecomesEioWithItsClassInTheMetadata() {
        MemorySegment c = consumer();
        CompletableFuture<Void> done = export(new RangePublisher(10, Batches::batch, 0,
                () -> new IllegalStateException("broken pipe")), Batches.SCHEMA, DeviceType.CPU, c);
        awaitRelease(c);
        assertEquals(Errno.EIO.code(), stat(c, ERROR_CODE));
        assertEquals("java.lang.IllegalStateException: broken pipe", text(c, 0));
        assertEquals("quiver.exception=java.lang.IllegalStateException", text(c, 1));
        assertInstanceOf(IllegalStateException.class, failure(done));
    }

    @Test
    void anErrorCodeFromOnNextTaskStopsTheStreamWithoutOnError() {
        MemorySegment c = consumer(CPU, 1, -1, 3, Errno.ENODEV.code(), 0);
        RangePublisher publisher = new RangePublisher(100, Batches::batch);
        CompletableFuture<Void> done = export(publisher, Batches.SCHEMA, DeviceType.CPU, c);
        awaitRelease(c);
        assertEquals(3, stat(c, TASKS));
        assertEquals(0, stat(c, ERRORS), "the producer does not call on_error after the consumer's error");
        StreamException e = assertInstanceOf(StreamException.class, failure(done));
        assertEquals(Errno.ENODEV, e.errno().orElseThrow());
        assertTrue(publisher.cancelled.get());
    }

    @Test
    void requestOfZeroIsAnErrorThroughOnError() {
        MemorySegment c = consumer(CPU, 0, -1, -1, 0, 0);
        CompletableFuture<Void> done = export(new RangePublisher(10, Batches::batch), Batches.SCHEMA, DeviceType.CPU, c);
        awaitRelease(c);
        assertEquals(1, stat(c, ERRORS));
        assertEquals(Errno.EINVAL.code(), stat(c, ERROR_CODE));
        assertTrue(text(c, 0).contains("n > 0, got 0"), text(c, 0));
        assertEquals(0, stat(c, TASKS));
        assertInstanceOf(StreamException.class, failure(done));
    }

    @Test
    void anArrayOnAnotherDeviceTypeIsAnErrorAndIsReleased() {
        MemorySegment c = consumer(DeviceType.CUDA.code(), 1, -1, -1, 0, 0);
        CompletableFuture<Void> done = export(new RangePublisher(10, Batches::batch), Batches.SCHEMA, DeviceType.CUDA, c);
        awaitRelease(c);
        assertEquals(DeviceType.CUDA.code(), stat(c, PRODUCER_DEVICE_TYPE));
        assertEquals(0, stat(c, TASKS));
        assertEquals(Errno.EINVAL.code(), stat(c, ERROR_CODE));
        assertTrue(text(c, 0).contains("array 0 is on CPU but the stream's device_type is CUDA"), text(c, 0));
        assertInstanceOf(StreamException.class, failure(done));
    }

    @Test
    void aHandlerWithoutCallbacksIsRefusedBeforeAnythingStarts() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment empty = arena.allocate(ArrowAsyncDeviceStreamHandlerLayout.LAYOUT);
            RangePublisher publisher = new RangePublisher(1, Batches::batch);
            InvalidArrowException e = assertThrows(InvalidArrowException.class,
                    () -> export(publisher, Batches.SCHEMA, DeviceType.CPU, empty));
            assertEquals("handler.on_schema", e.fieldPath());
            assertEquals(MemorySegment.NULL, empty.get(ValueLayout.ADDRESS, ArrowAsyncDeviceStreamHandlerLayout.PRODUCER));
            assertEquals(0, publisher.emitted.get());
        }
    }

    @Test
    void aPublisherThatSignalsOnItsOwnThreadsIsSerialized() throws Exception {
        MemorySegment c = consumer(CPU, 3, -1, -1, 0, 0);
        SubmissionPublisher<DeviceArray> publisher = new SubmissionPublisher<>();
        try {
            CompletableFuture<Void> done = export(publisher, Batches.SCHEMA, DeviceType.CPU, c);
            while (publisher.getNumberOfSubscribers() == 0) {
                Thread.onSpinWait();
            }
            for (int i = 0; i < 200; i++) {
                publisher.submit(Batches.batch(i));
            }
            publisher.close();   // the end of the stream, before the release is awaited
            awaitRelease(c);
            assertNull(done.get(30, TimeUnit.SECONDS));
        } finally {
            publisher.close();
        }
        assertEquals(200, stat(c, ARRAYS_OK));
        assertEquals(1, stat(c, END_SEEN));
    }
}
