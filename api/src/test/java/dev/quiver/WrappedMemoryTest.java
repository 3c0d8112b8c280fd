package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Device#wrap}: memory the caller allocated, with a release action that runs exactly once, when the
 * last holder lets go (the buffer, or the array it moved into and every slice and reference of it), and
 * never while a failed build leaves the buffer with the caller. Bad arguments are refused before anything
 * is taken.
 */
class WrappedMemoryTest {
    private static final Devices DEVICES = Backends.devices(List.of(HostProvider.host()), BackendSelection.all());
    private static final Device CPU = DEVICES.cpu();
    private static final Field INT64 = Field.of("x", new ArrowType.Int(64, true), false);

    private final AtomicInteger releases = new AtomicInteger();
    private final Arena arena = Arena.ofShared();

    /** Four longs 10..13 in memory the test owns; releasing closes its arena. */
    private DeviceBuffer wrapped() {
        MemorySegment memory = arena.allocate(JAVA_LONG, 4);
        for (int i = 0; i < 4; i++) {
            memory.setAtIndex(JAVA_LONG, i, 10 + i);
        }
        return CPU.wrap(memory, memory.byteSize(), () -> {
            releases.incrementAndGet();
            arena.close();
        });
    }

    @Test
    void anUnusedWrappedBufferReleasesOnceOnClose() {
        DeviceBuffer buffer = wrapped();
        assertEquals(13L, buffer.asSegment().getAtIndex(JAVA_LONG, 3));
        buffer.close();
        buffer.close();
        assertEquals(1, releases.get());
        assertThrows(IllegalStateException.class, buffer::pointer);
    }

    /** Closes the owner, a slice and a reference in each of the six orders (the order is the bits of the value). */
    @ParameterizedTest(name = "order {0}")
    @ValueSource(ints = {12, 21, 102, 120, 201, 210})
    void theReleaseRunsOnceWhenTheLastHolderCloses(int order) {
        long exports = Diagnostics.liveExports();
        DeviceArray array = ArrayBuilder.of(INT64, CPU).length(4).nullCount(0).absentBuffer().buffer(wrapped()).build();
        DeviceArray slice = array.slice(1, 2);
        KeepAlive reference = array.retain();
        List<AutoCloseable> holders = List.of(array, slice, reference);
        assertEquals(List.of(11L, 12L), ArrayReader.of(slice).values());
        String digits = String.format("%03d", order);
        for (int k = 0; k < 3; k++) {
            assertEquals(0, releases.get(), "still held before close " + k);
            close(holders.get(digits.charAt(k) - '0'));
        }
        assertEquals(1, releases.get(), "released once, by the last close");
        assertEquals(exports, Diagnostics.liveExports());
    }

    @Test
    void aConsumerReleasingTheExportRunsTheRelease() {
        try (Arena structs = Arena.ofConfined()) {
            MemorySegment deviceArray = ArrowDeviceArrayLayout.allocate(structs);
            MemorySegment schema = ArrowSchemaLayout.allocate(structs);
            Interchange.exportDevice(ArrayBuilder.of(INT64, CPU).length(4).nullCount(0).absentBuffer().buffer(wrapped()).build(), deviceArray, schema);
            assertEquals(0, releases.get());
            assertEquals(0, CConsumer.release(deviceArray, schema));
            assertEquals(1, releases.get());
        }
    }

    @Test
    void aFailedBuildLeavesTheBufferWithTheCallerUntilItCloses() {
        DeviceBuffer buffer = wrapped();
        var tooShort = assertThrows(IllegalArgumentException.class,
                () -> ArrayBuilder.of(INT64, CPU).length(5).absentBuffer().buffer(buffer).build());
        assertTrue(tooShort.getMessage().contains("holds 32 bytes"), tooShort.getMessage());
        var invalid = assertThrows(InvalidArrowException.class,
                () -> ArrayBuilder.of(INT64, CPU).length(4).buffer(buffer).build());
        assertTrue(invalid.getMessage().contains("n_buffers"), invalid.getMessage());
        assertEquals(0, releases.get(), "a refused build takes nothing");
        assertEquals(10L, buffer.asSegment().getAtIndex(JAVA_LONG, 0), "still the caller's, still readable");
        buffer.close();
        assertEquals(1, releases.get());
    }

    @Test
    void badArgumentsAreRefusedAndNothingIsTaken() {
        Runnable counted = releases::incrementAndGet;
        MemorySegment eight = arena.allocate(8);
        refused(NullPointerException.class, "pointer", () -> CPU.wrap(null, 8, counted));
        refused(NullPointerException.class, "release", () -> CPU.wrap(eight, 8, null));
        refused(IllegalArgumentException.class, "pointer is NULL", () -> CPU.wrap(MemorySegment.NULL, 8, counted));
        refused(IllegalArgumentException.class, "pointer is Java heap memory", () -> CPU.wrap(MemorySegment.ofArray(new long[1]), 8, counted));
        refused(IllegalArgumentException.class, "byteSize must be -1 (unknown) or a size: -2", () -> CPU.wrap(eight, -2, counted));
        refused(IllegalArgumentException.class, "byteSize 16 is more than the 8 bytes", () -> CPU.wrap(eight, 16, counted));
        assertEquals(0, releases.get(), "a refused wrap never runs the release");
        arena.close();
    }

    private static void refused(Class<? extends RuntimeException> type, String messageStart, Executable call) {
        String message = assertThrows(type, call).getMessage();
        assertTrue(message.startsWith(messageStart), message);
    }

    private static void close(AutoCloseable holder) {
        try {
            holder.close();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
