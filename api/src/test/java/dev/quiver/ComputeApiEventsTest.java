package dev.quiver;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.plugin.Backends;
import dev.quiver.host.ArrayReader;
import dev.quiver.testkit.backend.TestDoubleProvider;
import dev.quiver.host.HostVector;
import dev.quiver.spi.DeviceTypeCodes;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.NoSuchElementException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Streams, events and copies of the compute API, recorded by a test double device (not host accessible):
 * which waits happen on the device and which on the host, owned and adopted events and streams, ranking.
 * The double backs no claim about hardware; the same paths run on PoCL and lavapipe in the CLI's tests.
 */
class ComputeApiEventsTest {
    private final TestDoubleProvider provider = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
    private final Devices devices = Backends.devices(List.of(provider), BackendSelection.all());
    private final Device device = devices.get(DeviceType.EXT_DEV, 0);

    @Test
    void aFixedWidthCopyWithinTheDeviceWaitsOnTheDeviceNotTheHost() {
        try (DeviceArray host = HostVector.int64("x", 1L, null, 3L).toDeviceArray(devices);
             DeviceArray onDevice = Copies.toDevice(host, device);
             DeviceStream stream = device.createStream()) {
            long event = onDevice.syncEvent().orElseThrow().handle().address();
            int hostWaits = provider.waitedEvents.size();
            try (DeviceArray copy = Copies.toDevice(onDevice, device, stream)) {
                assertEquals(hostWaits, provider.waitedEvents.size(), "the host did not wait");
                assertTrue(provider.streamWaits.contains(new TestDoubleProvider.StreamWait(stream.handle().address(), event)),
                        "the stream waited on the source's event");
                try (DeviceArray back = Copies.toHost(copy)) {
                    assertEquals(List.of(1L, 3L), ArrayReader.of(back).values().stream().filter(v -> v != null).toList());
                }
            }
        }
    }

    @Test
    void aCopyThatReadsOffsetsWaitsOnTheHostFirst() {
        try (DeviceArray host = HostVector.utf8("s", "a", "bb").toDeviceArray(devices);
             DeviceArray onDevice = Copies.toDevice(host, device)) {
            long event = onDevice.syncEvent().orElseThrow().handle().address();
            try (DeviceArray _ = Copies.toDevice(onDevice, device)) {
                assertTrue(provider.waitedEvents.contains(event), "string offsets are read on the host after the event");
            }
        }
    }

    @Test
    void recordedEventsAreOwnedAndMoveIntoBuiltArrays() {
        try (DeviceStream stream = device.createStream()) {
            SyncEvent event = stream.recordEvent();
            assertTrue(event.isOwned());
            long handle = event.handle().address();
            assertTrue(provider.eventRecords.contains(new TestDoubleProvider.EventRecord(handle, stream.handle().address())));
            DeviceBuffer values = device.allocate(16);
            DeviceArray array = ArrayBuilder.of(dev.quiver.type.Field.of("x", new dev.quiver.type.ArrowType.Int(64, true), false), device)
                    .length(2).nullCount(0).absentBuffer().buffer(values).syncEvent(event).build();
            assertThrows(IllegalStateException.class, event::pointer, "moved into the array");
            assertEquals(handle, array.syncEvent().orElseThrow().handle().address(), "exported as the sync_event");
            assertFalse(provider.destroyedEvents.contains(handle));
            array.close();
            assertTrue(provider.destroyedEvents.contains(handle), "the array's release destroyed the event");
        }
    }

    @Test
    void adoptedEventsAndStreamsAreForgottenOrReleasedAsAsked() {
        try (DeviceStream made = device.createStream()) {
            MemorySegment nativeEvent = Backends.of(device).capability(DeviceEvents.class).orElseThrow().createEvent();
            try (SyncEvent borrowed = device.adoptEvent(nativeEvent, false)) {
                assertFalse(borrowed.isOwned());
                assertEquals(nativeEvent.address(), borrowed.handle().address());
                made.waitFor(borrowed);
                assertTrue(provider.streamWaits.contains(new TestDoubleProvider.StreamWait(made.handle().address(), nativeEvent.address())));
                assertThrows(IllegalArgumentException.class, () -> ArrayBuilder.of(
                        dev.quiver.type.Field.of("n", new dev.quiver.type.ArrowType.Null(), true), device).length(0).syncEvent(borrowed).build());
            }
            assertFalse(provider.destroyedEvents.contains(nativeEvent.address()), "a borrowed adoption only forgets");
            SyncEvent owned = device.adoptEvent(nativeEvent, true);
            owned.close();
            owned.close();
            assertEquals(1, provider.destroyedEvents.stream().filter(e -> e == nativeEvent.address()).count(), "destroyed once");
            try (DeviceStream adopted = device.adoptStream(made.handle(), false)) {
                assertEquals(made.handle(), adopted.handle());
                adopted.synchronize();
            }
            made.synchronize();
        }
    }

    @Test
    void anEventCannotOrderAStreamOfAnotherDevice() {
        Device other = devices.get(DeviceType.EXT_DEV, 1);
        try (DeviceStream stream = device.createStream(); DeviceStream otherStream = other.createStream();
             SyncEvent event = stream.recordEvent()) {
            var error = assertThrows(IllegalArgumentException.class, () -> otherStream.waitFor(event));
            assertTrue(error.getMessage().contains("EXT_DEV:0"), error.getMessage());
        }
    }

    @Test
    void nativeHandlesNameWhatADeviceHas() {
        var error = assertThrows(NoSuchElementException.class, () -> device.nativeHandle("cl_context"));
        assertTrue(error.getMessage().contains("cl_context"), error.getMessage());
    }

    @Test
    void devicesRankByTypeAndPrintWhatTheyHold() {
        TestDoubleProvider opencl = new TestDoubleProvider("ocl", DeviceTypeCodes.OPENCL, 0);
        TestDoubleProvider cuda = new TestDoubleProvider("cu", DeviceTypeCodes.CUDA, 0);
        Devices both = Backends.devices(List.of(opencl, cuda, TestDoubleProvider.unavailable("rocm", DeviceTypeCodes.ROCM, "no ROCm device")),
                BackendSelection.all());
        assertEquals(List.of(DeviceType.CUDA, DeviceType.CUDA, DeviceType.OPENCL, DeviceType.OPENCL),
                DeviceRanking.defaults().rank(both.all()).stream().map(Device::type).toList());
        assertEquals(List.of(DeviceType.OPENCL, DeviceType.OPENCL, DeviceType.CUDA, DeviceType.CUDA),
                DeviceRanking.parse("opencl").rank(both.all()).stream().map(Device::type).toList());
        assertThrows(IllegalArgumentException.class, () -> DeviceRanking.parse("tpu"));
        String text = both.toString();
        assertTrue(text.startsWith("Devices[CUDA:0"), text);
        assertTrue(text.contains("no ROCm device"), text);
        try (DeviceArray array = HostVector.int64("x", 1L, null).toDeviceArray(devices)) {
            assertTrue(array.toString().contains("\"x\" l, length 2, offset 0, null_count 1, 2 buffers, 0 children"), array.toString());
        }
    }
}
