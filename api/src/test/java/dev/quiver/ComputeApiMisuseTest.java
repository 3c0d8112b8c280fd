package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.host.HostVector;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad use of the compute API on a test double device the host cannot address: closed arrays, streams,
 * events and buffers, parts of another device, host access to device memory, a second build. Each gets an
 * exception whose message names the problem, and nothing leaks: after each test every device allocation
 * of the double is freed and every exported struct released.
 */
class ComputeApiMisuseTest {
    private static final Field INT64 = Field.of("x", new ArrowType.Int(64, true), true);

    private final TestDoubleProvider provider = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
    private final Devices devices = Backends.devices(List.of(provider), BackendSelection.all());
    private final Device device = devices.get(DeviceType.EXT_DEV, 0);
    private final Device other = devices.get(DeviceType.EXT_DEV, 1);
    private long exports;

    @BeforeEach
    void count() {
        exports = Diagnostics.liveExports();
    }

    @AfterEach
    void nothingLeaked() {
        assertEquals(0, device.memoryPool().stats().bytesInUse(), "every device allocation back in the pool");
        assertEquals(0, other.memoryPool().stats().bytesInUse(), "every device allocation back in the pool");
        device.memoryPool().trim();
        other.memoryPool().trim();
        assertEquals(0, provider.liveAllocations(), "every device allocation freed once the pools are trimmed");
        assertEquals(exports, Diagnostics.liveExports(), "every exported struct released");
    }

    @Test
    void aClosedArrayRefusesEveryUse() {
        DeviceArray array;
        try (DeviceArray host = HostVector.struct("t", HostVector.int64("a", 1L, null)).toDeviceArray(devices)) {
            array = Copies.toDevice(host, device);
        }
        DeviceBuffer view = array.buffer(0);
        array.close();
        try (DeviceStream stream = device.createStream(); Arena arena = Arena.ofConfined()) {
            for (Executable use : List.<Executable>of(() -> array.buffer(0), () -> array.child(0), () -> array.child(array.field().childIndex("a")),
                    array::dictionary, array::offset, () -> Copies.toDevice(array, device, stream), () -> Copies.toHost(array),
                    () -> array.slice(0, 1), array::retain, view::pointer,
                    () -> Interchange.exportShared(array, dev.quiver.abi.ArrowDeviceArrayLayout.allocate(arena), MemorySegment.NULL))) {
                String message = assertThrows(IllegalStateException.class, use).getMessage();
                assertTrue(message.contains("\"t\" is closed") || message.contains("belongs to is closed"), message);
            }
        }
    }

    @Test
    void aCopyOnAStreamOfAnotherDeviceIsRefusedBeforeAnythingMoves() {
        long copied = Diagnostics.bytesCopied();
        try (DeviceArray array = HostVector.int64("x", 1L, 2L).toDeviceArray(devices);
             DeviceStream stream = other.createStream()) {
            String message = assertThrows(IllegalArgumentException.class, () -> Copies.toDevice(array, device, stream)).getMessage();
            assertTrue(message.startsWith("stream of EXT_DEV:1") && message.contains("for a copy to EXT_DEV:0"), message);
        }
        assertEquals(copied, Diagnostics.bytesCopied(), "nothing copied");
    }

    @Test
    void aClosedStreamIsRefusedByCopiesAndEvents() {
        DeviceStream stream = device.createStream();
        stream.close();
        try (DeviceArray array = HostVector.int64("x", 1L, 2L).toDeviceArray(devices);
             DeviceBuffer buffer = device.allocate(16); Arena arena = Arena.ofConfined()) {
            for (Executable use : List.<Executable>of(() -> Copies.toDevice(array, device, stream),
                    () -> buffer.copyFromHost(arena.allocate(8), 0, stream), () -> buffer.copyToHost(0, arena.allocate(8), stream),
                    stream::recordEvent, stream::synchronize)) {
                String message = assertThrows(IllegalStateException.class, use).getMessage();
                assertTrue(message.startsWith("stream of EXT_DEV:0") && message.endsWith("is closed"), message);
            }
        }
    }

    @Test
    void aClosedEventIsRefusedByBuildsAndWaits() {
        try (DeviceStream stream = device.createStream(); DeviceBuffer values = device.allocate(16)) {
            SyncEvent event = stream.recordEvent();
            event.close();
            var build = assertThrows(IllegalArgumentException.class, () -> ArrayBuilder.of(INT64, device)
                    .length(2).nullCount(0).absentBuffer().buffer(values).syncEvent(event).build());
            assertEquals("syncEvent is closed: SyncEvent EXT_DEV:0", build.getMessage());
            var wait = assertThrows(IllegalStateException.class, () -> stream.waitFor(event));
            assertEquals("SyncEvent EXT_DEV:0 is closed", wait.getMessage());
            assertFalse(values.pointer().equals(MemorySegment.NULL), "the refused build left the buffer open");
        }
    }

    @Test
    void aClosedOrMovedBufferIsRefusedByBuildsAndCopies() {
        DeviceBuffer closed = device.allocate(16);
        closed.close();
        try (DeviceStream stream = device.createStream(); DeviceBuffer open = device.allocate(16); Arena arena = Arena.ofConfined()) {
            var build = assertThrows(IllegalArgumentException.class, () -> ArrayBuilder.of(INT64, device)
                    .length(2).nullCount(0).absentBuffer().buffer(closed).build());
            assertEquals("buffers[1] is closed: DeviceBuffer EXT_DEV:0 of 16 bytes", build.getMessage());
            var copy = assertThrows(IllegalStateException.class, () -> open.copyTo(0, closed, 0, 8, stream));
            assertEquals("DeviceBuffer EXT_DEV:0 of 16 bytes is closed", copy.getMessage());
            assertThrows(IllegalStateException.class, () -> closed.copyFromHost(arena.allocate(8), 0, stream));
            DeviceBuffer moved = device.allocate(16);
            ArrayBuilder.of(INT64, device).length(2).nullCount(0).absentBuffer().buffer(moved).build().close();
            var again = assertThrows(IllegalArgumentException.class, () -> ArrayBuilder.of(INT64, device)
                    .length(2).nullCount(0).absentBuffer().buffer(moved).build());
            assertEquals("buffers[1] is moved into an array: DeviceBuffer EXT_DEV:0 of 16 bytes", again.getMessage());
        }
    }

    @Test
    void theHostCannotAddressDeviceMemory() {
        try (DeviceBuffer buffer = device.allocate(16);
             DeviceArray host = HostVector.int64("x", 1L, 2L).toDeviceArray(devices);
             DeviceArray array = Copies.toDevice(host, device)) {
            for (DeviceBuffer memory : List.of(buffer, array.buffer(1))) {
                assertFalse(memory.isHostAccessible());
                var error = assertThrows(UnsupportedOperationException.class, memory::asSegment);
                assertEquals("EXT_DEV memory is not host-accessible: copy it with copyToHost", error.getMessage());
            }
        }
    }

    @Test
    void aBuilderBuildsOnce() {
        var builder = ArrayBuilder.of(INT64, device).length(2).nullCount(0).absentBuffer().buffer(device.allocate(16));
        try (DeviceArray built = builder.build()) {
            var again = assertThrows(IllegalStateException.class, builder::build);
            assertEquals("this builder already built an array; use a new builder", again.getMessage());
            assertEquals(2, built.length(), "the first array is intact");
        }
    }

    @Test
    void anEventOfAnotherDeviceCannotBeAdopted() {
        try (DeviceStream stream = device.createStream(); SyncEvent event = stream.recordEvent()) {
            String hex = "0x" + Long.toHexString(event.handle().address());
            var error = assertThrows(IllegalArgumentException.class, () -> other.adoptEvent(event.handle(), true));
            assertTrue(error.getMessage().startsWith("nativeEvent " + hex + " is event of " + Backends.of(device)), error.getMessage());
            assertTrue(error.getMessage().endsWith("not of " + Backends.of(other)), error.getMessage());
            stream.waitFor(event);
            assertFalse(provider.destroyedEvents.contains(event.handle().address()), "the refused adoption destroyed nothing");
        }
    }
}
