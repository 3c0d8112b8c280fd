package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Zero-copy views exported with exportShared keep the array's memory alive until every holder lets go. */
class ExportSharedTest {
    private static final Devices NONE = Devices.cpuOnly();
    private static final HostVector BATCH = HostVector.struct("t", HostVector.int32("a", 1, null, 3),
            HostVector.utf8("s", "x", "y", null));

    @Test
    void aViewOutlivesItsClosedOwnerAndSharesItsBuffers() {
        long exports = Diagnostics.liveExports();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment view = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            DeviceArray owner = BATCH.toDeviceArray(NONE);
            Interchange.exportShared(owner, view, schema);
            assertEquals(firstBuffer(Interchange.arrowArray(owner), 1), firstBuffer(view, 1), "zero-copy: the same validity buffer");
            owner.close();
            try (DeviceArray imported = Interchange.importDevice(view, schema, ImportOptions.on(NONE))) {
                assertEquals(BATCH.values(), ArrayReader.of(imported).values(), "the view reads after its owner closed");
            }
        }
        assertEquals(exports, Diagnostics.liveExports(), "the owner's memory went with the last view");
    }

    @Test
    void theOwnerCanOutliveItsViewsAndCannotMoveOutWhileOneIsHeld() {
        long exports = Diagnostics.liveExports();
        try (Arena arena = Arena.ofConfined(); DeviceArray owner = BATCH.toDeviceArray(NONE)) {
            MemorySegment view = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            Interchange.exportShared(owner, view, MemorySegment.NULL);
            MemorySegment out = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            assertThrows(IllegalStateException.class, () -> Interchange.exportDevice(owner, out, MemorySegment.NULL));
            Interchange.importDevice(view, owner.field(), ImportOptions.on(NONE)).close();
            assertEquals(BATCH.values(), ArrayReader.of(owner).values());
        }
        assertEquals(exports, Diagnostics.liveExports());
    }

    @Test
    void viewsAndTheOwnerReleaseConcurrently() {
        long exports = Diagnostics.liveExports();
        for (int round = 0; round < 200; round++) {
            DeviceArray owner = BATCH.toDeviceArray(NONE);
            Arena arena = Arena.ofShared();
            MemorySegment[] views = new MemorySegment[4];
            for (int i = 0; i < views.length; i++) {
                views[i] = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
                Interchange.exportShared(owner, views[i], MemorySegment.NULL);
            }
            CompletableFuture<?>[] closing = new CompletableFuture<?>[views.length + 1];
            for (int i = 0; i < views.length; i++) {
                MemorySegment view = views[i];
                closing[i] = CompletableFuture.runAsync(() -> Interchange.importDevice(view, owner.field(), ImportOptions.on(NONE)).close());
            }
            closing[views.length] = CompletableFuture.runAsync(owner::close);
            CompletableFuture.allOf(closing).join();
            arena.close();
        }
        assertEquals(exports, Diagnostics.liveExports());
    }

    @Test
    void aClosedArrayExportsNoView() {
        DeviceArray owner = BATCH.toDeviceArray(NONE);
        owner.close();
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalStateException.class, () -> Interchange.exportShared(owner, arena.allocate(ArrowDeviceArrayLayout.LAYOUT), MemorySegment.NULL));
        }
    }

    private static MemorySegment firstBuffer(MemorySegment array, int child) {
        MemorySegment children = array.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(16);
        MemorySegment member = children.getAtIndex(ADDRESS, child).reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
        return member.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(8).get(ADDRESS, 0);
    }
}
