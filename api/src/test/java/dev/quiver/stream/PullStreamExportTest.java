package dev.quiver.stream;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Diagnostics;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Java sources exported as ArrowDeviceArrayStream and pulled by a C consumer ({@code pull_consumer.c}). */
class PullStreamExportTest {
    private static final int CPU = DeviceType.CPU.code();
    private static final int RECEIVED = 0;
    private static final int CHECKED = 1;
    private static final int RELEASED = 2;
    private static final int SCHEMA = 3;
    private static final int STREAM_RELEASED = 5;
    private static final int FIRST_BAD_RULE = 6;

    private final Arena arena = Arena.ofShared();
    private long exportsBefore;
    private long streamsBefore;

    private long callbackFailuresBefore;

    @BeforeEach
    void baseline() {
        callbackFailuresBefore = Diagnostics.callbackFailures();
        exportsBefore = Diagnostics.liveExports();
        streamsBefore = PullStreamExport.LIVE.size();
    }

    @AfterEach
    void nothingLeftBehind() {
        assertEquals(callbackFailuresBefore, Diagnostics.callbackFailures(), "no upcall failed");
        assertEquals(exportsBefore, Diagnostics.liveExports(), "every exported array and schema was released");
        assertEquals(streamsBefore, PullStreamExport.LIVE.size(), "every exported stream was released");
        arena.close();
    }

    /** What the C consumer saw: its stats, its return code and the last error text. */
    private record Pulled(long[] stats, int code, String error) {}

    private Pulled consume(MemorySegment stream, int deviceType, boolean keep) {
        MemorySegment stats = arena.allocate(8 * 8, 8);
        MemorySegment error = arena.allocate(512);
        int code = StreamC.call(() -> (int) StreamC.PULL_CONSUME_ALL.invokeExact(stream, deviceType, keep ? 1 : 0, stats, error, 512));
        return new Pulled(stats.toArray(ValueLayout.JAVA_LONG), code, error.getString(0));
    }

    private MemorySegment newStream() {
        return arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
    }

    private static void assertCleanRun(Pulled pulled, long batches) {
        assertEquals(0, pulled.code(), pulled.error());
        assertEquals(0, pulled.stats()[SCHEMA], "the C consumer accepted the schema");
        assertEquals(batches, pulled.stats()[RECEIVED]);
        assertEquals(batches, pulled.stats()[CHECKED], "values as C reads them (first bad rule " + pulled.stats()[FIRST_BAD_RULE] + ")");
        assertEquals(batches, pulled.stats()[RELEASED], "each release, called once by C, marked its array released");
        assertEquals(1, pulled.stats()[STREAM_RELEASED]);
    }

    @Test
    void cConsumerPullsTenThousandBatchesFromAnIterator() {
        AtomicLong made = new AtomicLong();
        Iterator<DeviceArray> batches = LongStream.range(0, 10_000).peek(i -> made.incrementAndGet()).mapToObj(Batches::batch).iterator();
        MemorySegment stream = newStream();
        DeviceArrayStream.of(Batches.SCHEMA, DeviceType.CPU, batches).exportTo(stream);
        assertEquals(0, made.get(), "the source is pulled lazily");
        assertCleanRun(consume(stream, CPU, false), 10_000);
    }

    @Test
    void aJavaStreamIsClosedWhenTheConsumerReleases() {
        AtomicInteger closes = new AtomicInteger();
        MemorySegment stream = newStream();
        DeviceArrayStream.of(Batches.SCHEMA, DeviceType.CPU, LongStream.range(0, 100).mapToObj(Batches::batch).onClose(closes::incrementAndGet)).exportTo(stream);
        assertCleanRun(consume(stream, CPU, false), 100);
        assertEquals(1, closes.get());
    }

    @Test
    void aSupplierEndsTheStreamWithNull() {
        AtomicLong next = new AtomicLong();
        MemorySegment stream = newStream();
        DeviceArrayStream.of(Batches.SCHEMA, DeviceType.CPU, () -> next.get() < 50 ? Batches.batch(next.getAndIncrement()) : null).exportTo(stream);
        assertCleanRun(consume(stream, CPU, false), 50);
    }

    @Test
    void arraysOutliveTheStream() {
        MemorySegment stream = newStream();
        DeviceArrayStream.of(Batches.SCHEMA, DeviceType.CPU, LongStream.range(0, 20).mapToObj(Batches::batch).iterator()).exportTo(stream);
        assertCleanRun(consume(stream, CPU, true), 20);
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(new StreamException(Errno.ENOMEM, "no room for batch 3"), Errno.ENOMEM, "no room for batch 3"),
                Arguments.of(new IllegalArgumentException("bad batch"), Errno.EINVAL, "java.lang.IllegalArgumentException: bad batch"),
                Arguments.of(new UncheckedIOException(new IOException("disk gone")), Errno.EIO, "disk gone"),
                Arguments.of(new UnsupportedOperationException("not here"), Errno.ENOSYS, "not here"));
    }

    @ParameterizedTest
    @MethodSource("failures")
    void aSourceFailureBecomesAnErrnoCodeAndAMessage(RuntimeException failure, Errno expected, String text) {
        AtomicLong next = new AtomicLong();
        Supplier<DeviceArray> source = () -> {
            if (next.get() == 3) {
                throw failure;
            }
            return Batches.batch(next.getAndIncrement());
        };
        MemorySegment stream = newStream();
        DeviceArrayStream.of(Batches.SCHEMA, DeviceType.CPU, source).exportTo(stream);
        MemorySegment copy = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
        copy.copyFrom(stream); // the callbacks and private_data, to call get_next again after pull_consume_all
        Pulled pulled = consume(stream, CPU, false);
        assertEquals(expected.code(), pulled.code());
        assertEquals(3, pulled.stats()[CHECKED]);
        assertTrue(pulled.error().contains(text) && pulled.error().contains("array 3"), pulled.error());
        assertEquals(Errno.EINVAL.code(), nextOnce(copy).code(), "a released stream answers EINVAL");
        assertTrue(nextOnce(copy).error().contains("the stream was released"));
    }

    @Test
    void errorsAreSticky() {
        AtomicInteger calls = new AtomicInteger();
        MemorySegment stream = newStream();
        DeviceArrayStream.of(Batches.SCHEMA, DeviceType.CPU, () -> {
            calls.incrementAndGet();
            throw new StreamException(Errno.ENOSPC, "full");
        }).exportTo(stream);
        assertEquals(Errno.ENOSPC.code(), nextOnce(stream).code());
        Pulled again = nextOnce(stream);
        assertEquals(Errno.ENOSPC.code(), again.code());
        assertTrue(again.error().contains("full"), again.error());
        assertEquals(1, calls.get(), "a failed source is not called again");
        release(stream);
    }

    @Test
    void anArrayOnAnotherDeviceTypeFailsGetNextAndIsReleased() {
        MemorySegment stream = newStream();
        DeviceArrayStream.of(Batches.SCHEMA, DeviceType.CUDA, LongStream.range(0, 5).mapToObj(Batches::batch).iterator()).exportTo(stream);
        Pulled pulled = consume(stream, DeviceType.CUDA.code(), false);
        assertEquals(Errno.EINVAL.code(), pulled.code());
        assertEquals(0, pulled.stats()[RECEIVED]);
        assertTrue(pulled.error().contains("array 0 is on CPU but the stream's device_type is CUDA"), pulled.error());
    }

    @Test
    void anArrayOfAnotherTypeFailsGetNext() {
        MemorySegment stream = newStream();
        DeviceArrayStream.of(Batches.SCHEMA, DeviceType.CPU, Stream.of(HostVector.utf8("v", "x").toDeviceArray(Batches.NO_BACKENDS))).exportTo(stream);
        Pulled pulled = consume(stream, CPU, false);
        assertEquals(Errno.EINVAL.code(), pulled.code());
        assertTrue(pulled.error().contains("\"u\"") && pulled.error().contains("\"i\""), pulled.error());
    }

    @Test
    void concurrentGetNextIsRefusedWithEbusyAndReleaseWaitsForTheRunningCall() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger closes = new AtomicInteger();
        Supplier<DeviceArray> blocking = () -> {
            entered.countDown();
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Batches.batch(0);
        };
        MemorySegment stream = newStream();
        DeviceArrayStream.of(Batches.SCHEMA, DeviceType.CPU, Stream.generate(blocking).limit(1).onClose(closes::incrementAndGet)).exportTo(stream);
        MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
        CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> nextOnce(stream, array).code());
        assertTrue(entered.await(30, TimeUnit.SECONDS));
        Pulled busy = nextOnce(stream);
        assertEquals(Errno.EBUSY.code(), busy.code());
        assertTrue(busy.error().contains("must be serialized"), busy.error());
        release(stream);
        assertEquals(0, closes.get(), "the source is not closed under a running get_next");
        go.countDown();
        assertEquals(0, first.get(30, TimeUnit.SECONDS));
        assertEquals(1, closes.get(), "closed when the running call returned");
        assertEquals(0, StreamC.call(() -> (int) StreamC.PULL_CHECK_RELEASE.invokeExact(array, 0L, CPU)), "the array it returned is valid and outlives the stream");
    }

    private Pulled nextOnce(MemorySegment stream) {
        MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
        Pulled pulled = nextOnce(stream, array);
        if (pulled.code() == 0 && !array.get(ValueLayout.ADDRESS, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE).equals(MemorySegment.NULL)) {
            throw new AssertionError("unexpected array");
        }
        return pulled;
    }

    private Pulled nextOnce(MemorySegment stream, MemorySegment array) {
        MemorySegment error = arena.allocate(512);
        int code = StreamC.call(() -> (int) StreamC.PULL_NEXT_ONCE.invokeExact(stream, array, error, 512));
        return new Pulled(new long[0], code, error.getString(0));
    }

    private static void release(MemorySegment stream) {
        StreamC.call(() -> {
            StreamC.PULL_RELEASE_STREAM.invokeExact(stream);
            return null;
        });
    }
}
