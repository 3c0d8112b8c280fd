package dev.quiver.device.cpu;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.Devices;
import dev.quiver.spi.BackendDevice;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The argument checks the API puts in front of every backend, on the CPU device served by {@link Devices}: each
 * bad argument fails with a message naming it, before the backend runs, and the device stays usable.
 */
class CommonChecksOnCpuTest {
    private final BackendDevice cpu = Backends.of(Backends.devices(List.of(new CpuProvider()), BackendSelection.all()).cpu());

    @Test
    void sizesAndAlignmentsAreChecked() {
        assertEquals("byteSize is negative: -1", message(() -> cpu.allocate(-1, 8)));
        assertEquals("alignment must be a power of two, not 24", message(() -> cpu.allocate(8, 24)));
        assertEquals("alignment must be a power of two, not 0", message(() -> cpu.allocate(8, 0)));
        assertEquals("alignment must be a power of two, not -64", message(() -> cpu.allocate(8, -64)));
        cpu.free(cpu.allocate(0, 1));
    }

    @Test
    void offsetsCountsAndRangesAreChecked() {
        MemorySegment buffer = cpu.allocate(100, 64);
        MemorySegment stream = cpu.defaultStream();
        try (Arena arena = Arena.ofConfined()) {
            assertEquals("destinationOffset is negative: -1", message(() -> cpu.copyFromHost(arena.allocate(1), buffer, -1, stream)));
            assertEquals("byteCount is negative: -5", message(() -> cpu.copyWithinDevice(buffer, 0, buffer, 50, -5, stream)));
            assertEquals("sourceOffset + 8 bytes overflows: sourceOffset is " + Long.MAX_VALUE,
                    message(() -> cpu.copyToHost(buffer, Long.MAX_VALUE, arena.allocate(8), stream)));
            assertEquals("destination range [90, 110) is outside the 100-byte allocation 0x" + Long.toHexString(buffer.address())
                    + " of " + cpu, message(() -> cpu.copyFromHost(arena.allocate(20), buffer, 90, stream)));
            assertTrue(message(() -> cpu.copyWithinDevice(buffer, 60, buffer, 0, 41, stream)).startsWith("source range [60, 101)"));
            cpu.copyFromHost(arena.allocate(10).fill((byte) 9), buffer, 90, stream);
            MemorySegment back = arena.allocate(10);
            cpu.copyToHost(buffer, 90, back, stream);
            assertEquals(9, back.get(JAVA_BYTE, 9), "the last bytes of the allocation are in range");
        } finally {
            cpu.free(buffer);
        }
    }

    @Test
    void aSegmentTooSmallForTheCopyIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sixteen = arena.allocate(16);
            assertEquals("source is a segment of 16 bytes, too small for 16 bytes at sourceOffset 8",
                    message(() -> cpu.copyToHost(sixteen, 8, arena.allocate(16), cpu.defaultStream())));
            assertEquals("destination is a read-only segment",
                    message(() -> cpu.copyToHost(sixteen, 0, arena.allocate(16).asReadOnly(), cpu.defaultStream())));
        }
    }

    @Test
    void nullPointersAreRefusedWhereBytesMove() {
        try (Arena arena = Arena.ofConfined()) {
            assertEquals("source is NULL", message(() -> cpu.copyToHost(MemorySegment.NULL, 0, arena.allocate(8), cpu.defaultStream())));
            assertEquals("destination is NULL", message(() -> cpu.copyFromHost(arena.allocate(8), MemorySegment.NULL, 0, cpu.defaultStream())));
            cpu.copyToHost(MemorySegment.NULL, 0, arena.allocate(0), cpu.defaultStream());
        }
    }

    @Test
    void freeingTwiceOrWhatWasNeverAllocatedIsRefused() {
        MemorySegment buffer = cpu.allocate(10, 64);
        cpu.free(buffer);
        assertEquals("0x" + Long.toHexString(buffer.address()) + " was not allocated by " + cpu + " or was already freed",
                message(() -> cpu.free(buffer)));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment foreign = arena.allocate(10);
            assertTrue(message(() -> cpu.free(foreign)).endsWith("was not allocated by " + cpu + " or was already freed"));
        }
        cpu.free(MemorySegment.NULL);
    }

    @Test
    void theDefaultStreamIsNeverDestroyed() {
        assertTrue(message(() -> cpu.destroyStream(cpu.defaultStream())).endsWith("which is borrowed and never destroyed"));
        MemorySegment stream = cpu.createStream();
        cpu.synchronizeStream(stream);
        cpu.destroyStream(stream);
    }

    @Test
    void aDeviceWithoutEventsStillAnswersAsItsContractSays() {
        assertTrue(cpu.capability(DeviceEvents.class).isEmpty(), "the CPU makes no events");
        assertTrue(cpu.capability(EventWaits.class).isEmpty(), "the CPU waits on no events");
    }

    private static String message(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(IllegalArgumentException.class, call).getMessage();
    }
}
