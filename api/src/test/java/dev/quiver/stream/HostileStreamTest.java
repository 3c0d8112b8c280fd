package dev.quiver.stream;

import dev.quiver.BackendSelection;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.testkit.CLibrary;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hostile C stream producer ({@code hostile_stream.c}): an array handed over together with an error code
 * is still released, exactly once, and a huge error message is cut instead of copied whole.
 */
class HostileStreamTest {
    private static final CLibrary LIB = CLibrary.fromResources(HostileStreamTest.class,
            List.of("int32_batches.h", "int32_batches.c", "hostile_stream.c"), List.of());
    private static final MethodHandle NEW = LIB.function("hostile_stream_new", FunctionDescriptor.of(ADDRESS, JAVA_LONG));
    private static final MethodHandle EXPORT = LIB.function("hostile_stream_export", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    private static final MethodHandle STAT = LIB.function("hostile_stream_stat", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT));
    private static final MethodHandle FREE = LIB.function("hostile_stream_free", FunctionDescriptor.ofVoid(ADDRESS));
    private static final Devices NONE = Devices.of(List.of(), BackendSelection.all());

    @Test
    void anArrayGivenWithAnErrorIsReleasedAndAHugeMessageIsCut() throws Throwable {
        MemorySegment producer = (MemorySegment) NEW.invokeExact(64L << 20);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment stream = ArrowDeviceArrayStreamLayout.allocate(arena);
            EXPORT.invokeExact(producer, stream);
            try (DeviceArrayStream imported = DeviceArrayStream.importFrom(stream, NONE)) {
                StreamException error = assertThrows(StreamException.class, imported::hasNext);
                assertTrue(error.getMessage().contains("cut at 4096 bytes"), "the message is cut");
                assertTrue(error.getMessage().length() < 8192, "not 64 MiB: " + error.getMessage().length());
            }
            assertEquals(1L, (long) STAT.invokeExact(producer, 0), "one array made");
            assertEquals(1L, (long) STAT.invokeExact(producer, 1), "the array that came with the error was released once");
            assertEquals(1L, (long) STAT.invokeExact(producer, 3), "the stream was released once");
        } finally {
            FREE.invokeExact(producer);
        }
    }
}
