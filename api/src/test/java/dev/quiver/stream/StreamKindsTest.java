package dev.quiver.stream;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DeviceArrayStream} is a sealed type of two kinds: a stream made in this JVM is Java-backed, one moved in
 * from a C struct is C-backed, and either kind gives the same arrays through the same methods.
 */
class StreamKindsTest {
    private final Devices devices = Devices.cpuOnly();

    @Test
    void theStreamTypeIsSealedToItsTwoKinds() {
        assertTrue(DeviceArrayStream.class.isSealed());
        assertEquals(Set.of(CArrayStream.class, JavaArrayStream.class), Set.of(DeviceArrayStream.class.getPermittedSubclasses()));
    }

    @Test
    void aStreamMadeHereIsJavaBackedAndOneMovedInFromCIsCBacked() {
        DeviceArray first = HostVector.int64("x", 1L, 2L).toDeviceArray(devices);
        DeviceArray second = HostVector.int64("x", 3L).toDeviceArray(devices);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment struct = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
            DeviceArrayStream made = DeviceArrayStream.of(first.field(), DeviceType.CPU, List.of(first, second).iterator());
            assertInstanceOf(JavaArrayStream.class, made);
            made.exportTo(struct);
            try (DeviceArrayStream imported = DeviceArrayStream.importFrom(struct)) {
                assertInstanceOf(CArrayStream.class, imported);
                assertEquals(first.field(), imported.schema());
                assertEquals(DeviceType.CPU, imported.deviceType());
                long rows = 0;
                while (imported.hasNext()) {
                    try (DeviceArray array = imported.next()) {
                        rows += array.length();
                    }
                }
                assertEquals(3, rows);
            }
        }
    }
}
