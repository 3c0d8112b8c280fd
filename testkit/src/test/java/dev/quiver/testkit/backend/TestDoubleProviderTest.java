package dev.quiver.testkit.backend;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The test double of a backend does what its users rely on: memory, copies, counters, events, probes. */
class TestDoubleProviderTest {
    @Test
    void everyProbeServesTheSameDevicesOfItsCode() {
        TestDoubleProvider provider = TestDoubleProvider.builder("double", DeviceTypeCodes.ROCM).deviceCount(3).priority(5).build();
        List<BackendDevice> first = devices(provider);
        List<BackendDevice> second = devices(provider);
        assertEquals(2, provider.probes.get());
        assertEquals(3, first.size());
        assertEquals(first, second);
        assertSame(provider.device(2), first.get(2));
        assertEquals(5, provider.priority());
        assertArrayEquals(new int[] {DeviceTypeCodes.ROCM}, provider.deviceTypes());
        for (int id = 0; id < 3; id++) {
            assertEquals(id, first.get(id).deviceId());
            assertEquals(DeviceTypeCodes.ROCM, first.get(id).deviceType());
            assertFalse(first.get(id).hostAccessible());
        }
    }

    @Test
    void bytesGoToTheDeviceAndBackThroughCopies() {
        TestDoubleProvider provider = TestDoubleProvider.of(DeviceTypeCodes.CUDA);
        TestDoubleDevice device = provider.device(0);
        MemorySegment a = device.allocate(16, 8);
        MemorySegment b = device.allocate(16, 8);
        assertEquals(2, provider.liveAllocations());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(8);
            source.set(ValueLayout.JAVA_LONG, 0, 0x0102_0304_0506_0708L);
            MemorySegment stream = device.createStream();
            device.copyFromHost(source, MemorySegment.ofAddress(a.address()), 4, stream);
            device.copyWithinDevice(MemorySegment.ofAddress(a.address()), 4, MemorySegment.ofAddress(b.address()), 8, 8, stream);
            MemorySegment back = arena.allocate(8);
            device.copyToHost(MemorySegment.ofAddress(b.address()), 8, back, stream);
            assertEquals(0x0102_0304_0506_0708L, back.get(ValueLayout.JAVA_LONG, 0));
            device.synchronizeStream(stream);
            assertEquals(List.of(stream.address()), provider.streamSyncs);
        }
        device.free(a);
        device.free(b);
        assertEquals(0, provider.liveAllocations());
        var unknown = assertThrows(IllegalArgumentException.class, () -> device.free(a));
        assertTrue(unknown.getMessage().contains("was not allocated by test-double test double 0"), unknown.getMessage());
    }

    @Test
    void allocationsPastTheCapacityFailAsOutOfMemory() {
        TestDoubleProvider provider = TestDoubleProvider.of(DeviceTypeCodes.CUDA);
        provider.capacity = 100;
        MemorySegment held = provider.device(0).allocate(60, 8);
        DeviceException full = assertThrows(DeviceException.class, () -> provider.device(1).allocate(60, 8));
        assertEquals(DeviceException.Kind.OUT_OF_MEMORY, full.kind());
        assertEquals(1, provider.liveAllocations());
        provider.device(0).free(held);
        provider.device(1).free(provider.device(1).allocate(60, 8));
        assertEquals(0, provider.liveAllocations());
    }

    @Test
    void tokenEventsAreUniqueAcrossDevicesAndRecorded() {
        TestDoubleProvider provider = TestDoubleProvider.of(DeviceTypeCodes.OPENCL);
        TestDoubleDevice first = provider.device(0);
        MemorySegment one = first.createEvent();
        MemorySegment other = provider.device(1).createEvent();
        assertNotEquals(one.address(), other.address());
        assertTrue(one.address() > 0xFFFF, "above the small tokens: 0x" + Long.toHexString(one.address()));
        MemorySegment stream = first.createStream();
        first.recordEvent(one, stream);
        first.streamWaitEvent(stream, one);
        first.waitEvent(one);
        assertTrue(first.isEventComplete(one));
        first.destroyEvent(one);
        assertEquals(List.of(new TestDoubleProvider.EventRecord(one.address(), stream.address())), provider.eventRecords);
        assertEquals(List.of(new TestDoubleProvider.StreamWait(stream.address(), one.address())), provider.streamWaits);
        assertEquals(List.of(one.address()), provider.waitedEvents);
        assertEquals(List.of(one.address()), provider.destroyedEvents);
    }

    @Test
    void aRecordFailureIsThrownAfterTheCallIsNoted() {
        TestDoubleProvider provider = TestDoubleProvider.of(DeviceTypeCodes.CUDA);
        provider.recordFailure = new IllegalStateException("record refused");
        MemorySegment event = provider.device(0).createEvent();
        var thrown = assertThrows(IllegalStateException.class, () -> provider.device(0).recordEvent(event, MemorySegment.NULL));
        assertEquals("record refused", thrown.getMessage());
        assertEquals(1, provider.eventRecords.size());
    }

    @Test
    void eventsInHostMemoryAreRecognisedOnlyByTheirDevice() {
        TestDoubleProvider provider = TestDoubleProvider.builder("rocm", DeviceTypeCodes.ROCM).eventsInHostMemory().build();
        MemorySegment event = provider.device(0).createEvent();
        event.reinterpret(64).set(ValueLayout.JAVA_LONG, 56, 1);   // a block of host memory, writable
        assertTrue(provider.device(0).isEventComplete(event));
        var foreign = assertThrows(IllegalArgumentException.class, () -> provider.device(1).isEventComplete(event));
        assertEquals("test double: 0x" + Long.toHexString(event.address()) + " is not an event", foreign.getMessage());
        provider.device(0).destroyEvent(event);
        assertThrows(IllegalArgumentException.class, () -> provider.device(0).isEventComplete(event));
    }

    @Test
    void aDeviceWithoutEventsRefusesEveryEventCall() {
        TestDoubleProvider provider = TestDoubleProvider.builder("plain", DeviceTypeCodes.EXT_DEV).withoutEvents().build();
        TestDoubleDevice device = provider.device(0);
        assertFalse(device.capability(DeviceEvents.class).isPresent());
        var refused = assertThrows(UnsupportedOperationException.class, device::createEvent);
        assertEquals("test double plain test double 0 has no events", refused.getMessage());
    }

    @Test
    void probesCanReportUnavailableOrThrow() {
        TestDoubleProvider absent = TestDoubleProvider.unavailable("absent", DeviceTypeCodes.CUDA, "no driver");
        assertEquals(List.of("no driver"), assertInstanceOf(ProbeResult.Unavailable.class, absent.probe()).reasons());
        TestDoubleProvider broken = TestDoubleProvider.throwing("broken", DeviceTypeCodes.CUDA);
        assertThrows(IllegalStateException.class, broken::probe);
        assertEquals(1, broken.probes.get());
    }

    private static List<BackendDevice> devices(TestDoubleProvider provider) {
        return assertInstanceOf(ProbeResult.Available.class, provider.probe()).devices();
    }
}
