package dev.quiver.stream;

import dev.quiver.ImportOptions;
import dev.quiver.BackendSelection;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.internal.abi.ReadableMemory;
import dev.quiver.testkit.CLibrary;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hostile C stream producer ({@code hostile_stream.c}): an array handed over together with an error code
 * is still released, exactly once, and the error message is read through checked memory: a huge one is cut
 * instead of copied whole, an unreadable pointer or a string running into unreadable memory is described
 * instead of read.
 */
class HostileStreamTest {
    private static final CLibrary LIB = CLibrary.fromResources(HostileStreamTest.class,
            List.of("int32_batches.h", "int32_batches.c", "hostile_stream.c"), List.of());
    private static final MethodHandle NEW = LIB.function("hostile_stream_new", FunctionDescriptor.of(ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle EXPORT = LIB.function("hostile_stream_export", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    private static final MethodHandle STAT = LIB.function("hostile_stream_stat", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT));
    private static final MethodHandle FREE = LIB.function("hostile_stream_free", FunctionDescriptor.ofVoid(ADDRESS));
    private static final Devices NONE = Devices.cpuOnly();

    /** Where the producer puts its message: the values of hostile_stream.c's message_place. */
    private static final int ON_HEAP = 0;
    private static final int UNREADABLE = 1;
    private static final int AT_PAGE_END = 2;

    static Stream<Arguments> messages() {
        return Stream.of(
                Arguments.of(ON_HEAP, 64L << 20, "get_next: " + "x".repeat(4096) + "... (cut at 4096 bytes: no terminator)"),
                Arguments.of(UNREADABLE, 0L, " does not point to readable memory)"),
                Arguments.of(AT_PAGE_END, 100L, "get_next: " + "x".repeat(100)
                        + "... (cut at 100 bytes: runs into unreadable memory without a terminator)"));
    }

    @ParameterizedTest(name = "message place {0}, {1} bytes")
    @MethodSource("messages")
    void anArrayGivenWithAnErrorIsReleasedAndTheMessageIsReadSafely(int place, long bytes, String expected) throws Throwable {
        MemorySegment producer = (MemorySegment) NEW.invokeExact(bytes, place);
        // The cached map of readable memory may predate the producer's guard page and still show memory
        // unmapped since as readable; an address never mapped (the NULL page) misses it and has it taken again.
        ReadableMemory.readableBytes(MemorySegment.ofAddress(0x10), 1);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stream = ArrowDeviceArrayStreamLayout.allocate(arena);
            EXPORT.invokeExact(producer, stream);
            try (DeviceArrayStream imported = DeviceArrayStream.importFrom(stream, ImportOptions.on(NONE))) {
                StreamException error = assertThrows(StreamException.class, imported::hasNext);
                assertEquals(5, error.code(), "EIO");
                assertTrue(error.getMessage().contains(expected), "the message says so: " + error.getMessage());
                assertTrue(error.getMessage().length() < 8192, "not the whole message: " + error.getMessage().length());
            }
            assertEquals(1L, (long) STAT.invokeExact(producer, 0), "one array made");
            assertEquals(1L, (long) STAT.invokeExact(producer, 1), "the array that came with the error was released once");
            assertEquals(1L, (long) STAT.invokeExact(producer, 3), "the stream was released once");
        } finally {
            FREE.invokeExact(producer);
        }
    }
}
