package dev.quiver;

import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Export targets are checked before anything changes: a refused export leaves the array open, owned and releasable. */
class ExportTargetTest {
    private static final Devices NONE = Devices.cpuOnly();

    @Test
    void nullHeapAndShortTargetsAreRefusedAndTheArrayStaysUsable() {
        long exports = Diagnostics.liveExports();
        try (Arena arena = Arena.ofConfined(); DeviceArray array = HostVector.int64("x", 1L, null).toDeviceArray(NONE)) {
            MemorySegment schema = ArrowSchemaLayout.allocate(arena);
            var nul = assertThrows(IllegalArgumentException.class, () -> Interchange.exportDevice(array, MemorySegment.NULL, schema));
            assertTrue(nul.getMessage().contains("deviceArray is NULL"), nul.getMessage());
            var shortTarget = assertThrows(IllegalArgumentException.class, () -> Interchange.exportDevice(array, arena.allocate(16), schema));
            assertTrue(shortTarget.getMessage().contains("holds 16 bytes but the struct needs 128"), shortTarget.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Interchange.exportDevice(array, MemorySegment.ofArray(new byte[128]), schema));
            assertThrows(IllegalArgumentException.class, () -> Interchange.exportDevice(array, ArrowDeviceArrayLayout.allocate(arena), arena.allocate(8)));
            assertThrows(IllegalArgumentException.class, () -> Interchange.exportShared(array, MemorySegment.NULL, schema));
            assertFalse(array.isClosed(), "nothing changed");
            assertEquals(Arrays.asList(1L, null), ArrayReader.of(array).values());
            MemorySegment target = ArrowDeviceArrayLayout.allocate(arena);
            Interchange.exportDevice(array, target, schema);
            try (DeviceArray back = Interchange.importDevice(target, schema, ImportOptions.on(NONE))) {
                assertEquals(Arrays.asList(1L, null), ArrayReader.of(back).values());
            }
        }
        assertEquals(exports, Diagnostics.liveExports(), "everything released exactly once");
    }
}
