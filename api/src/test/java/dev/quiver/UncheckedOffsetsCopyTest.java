package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.abi.PlainExport;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A copy never follows list offsets past the child they index, even when nothing validated them (a producer
 * trusted, or memory another process rewrote after the check): the copy is refused naming the offsets, where it
 * would otherwise read past the child's buffers.
 */
class UncheckedOffsetsCopyTest {

    @Test
    void listOffsetsPastTheChildAreRefusedByTheCopyNotFollowed() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ArrowArrayLayout.LAYOUT);
            MemorySegment schema = ArrowSchemaLayout.allocate(arena);
            HostVector lists = HostVector.list("l", HostVector.int64("item", 1L, 2L, 3L), 2, 1);
            try (DeviceArray built = lists.toDeviceArray(Devices.cpuOnly())) {
                Interchange.exportPlain(built, array, schema, PlainExport.REFUSE);
            }
            MemorySegment offsets = array.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(16).getAtIndex(ADDRESS, 1).reinterpret(12);
            offsets.setAtIndex(JAVA_INT, 2, 1 << 30);   // the last list ends a billion elements into a child of 3
            ImportOptions trusted = ImportOptions.on(Devices.cpuOnly()).trust(ProducerTrust.TRUSTED);
            try (DeviceArray imported = Interchange.importPlain(array, schema, trusted)) {
                InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> Copies.toHost(imported));
                assertTrue(e.getMessage().contains("offsets 0..1073741824") && e.getMessage().contains("child's 3 elements"),
                        e.getMessage());
                try (DeviceArray range = imported.slice(0, 1); DeviceArray first = Copies.toHost(range)) {
                    assertEquals(1, first.length(), "a range whose offsets stay inside the child still copies");
                }
            }
        }
    }
}
