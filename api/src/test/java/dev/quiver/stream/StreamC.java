package dev.quiver.stream;

import dev.quiver.testkit.CLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C producers and consumers of the stream tests ({@code pull_producer.c}, {@code pull_consumer.c},
 * {@code async_producer.c}, {@code async_consumer.c}), compiled with gcc on first use. Thread-safe.
 */
final class StreamC {
    static final List<String> SOURCES = List.of("async_abi.h", "int32_batches.h", "int32_batches.c",
            "pull_producer.c", "pull_consumer.c", "async_producer.c", "async_consumer.c");
    private static final CLibrary LIB = CLibrary.fromResources(StreamC.class, SOURCES, List.of());

    static final MethodHandle PULL_PRODUCER_NEW = fn("pull_producer_new", FunctionDescriptor.of(ADDRESS,
            JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT));
    static final MethodHandle PULL_PRODUCER_EXPORT = fn("pull_producer_export", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    static final MethodHandle PULL_PRODUCER_STAT = fn("pull_producer_stat", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT));
    static final MethodHandle PULL_PRODUCER_UNBLOCK = fn("pull_producer_unblock", FunctionDescriptor.ofVoid(ADDRESS));
    static final MethodHandle PULL_PRODUCER_FREE = fn("pull_producer_free", FunctionDescriptor.ofVoid(ADDRESS));

    static final MethodHandle PULL_CONSUME_ALL = fn("pull_consume_all", FunctionDescriptor.of(JAVA_INT,
            ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
    static final MethodHandle PULL_NEXT_ONCE = fn("pull_next_once", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
    static final MethodHandle PULL_RELEASE_STREAM = fn("pull_release_stream", FunctionDescriptor.ofVoid(ADDRESS));
    static final MethodHandle PULL_CHECK_RELEASE = fn("pull_check_release", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));

    static final MethodHandle ASYNC_PRODUCER_START = fn("async_producer_start", FunctionDescriptor.of(ADDRESS,
            ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT));
    static final MethodHandle ASYNC_PRODUCER_JOIN = fn("async_producer_join", FunctionDescriptor.ofVoid(ADDRESS));
    static final MethodHandle ASYNC_PRODUCER_STAT = fn("async_producer_stat", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT));
    static final MethodHandle ASYNC_PRODUCER_FREE = fn("async_producer_free", FunctionDescriptor.ofVoid(ADDRESS));
    /** What async producers started from now on do once cancelled: 0 release, 1 end the stream, 2 on_error(ECANCELED). */
    static final MethodHandle ASYNC_PRODUCER_AFTER_CANCEL = fn("async_producer_after_cancel", FunctionDescriptor.ofVoid(JAVA_INT));

    static final MethodHandle ASYNC_CONSUMER_NEW = fn("async_consumer_new", FunctionDescriptor.of(ADDRESS,
            JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));
    static final MethodHandle ASYNC_CONSUMER_WAIT = fn("async_consumer_wait", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
    static final MethodHandle ASYNC_CONSUMER_STAT = fn("async_consumer_stat", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT));
    static final MethodHandle ASYNC_CONSUMER_TEXT = fn("async_consumer_text", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
    static final MethodHandle ASYNC_CONSUMER_FREE = fn("async_consumer_free", FunctionDescriptor.ofVoid(ADDRESS));

    private StreamC() {}

    private static MethodHandle fn(String name, FunctionDescriptor descriptor) {
        return LIB.function(name, descriptor);
    }

    /** A C call that may throw anything. */
    interface NativeCall<T> {
        T call() throws Throwable;
    }

    /** Runs a downcall, rethrowing unchecked. */
    static <T> T call(NativeCall<T> call) {
        try {
            return call.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static String string(MemorySegment pointer) {
        return pointer.reinterpret(4096).getString(0);
    }
}
