package dev.quiver;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.spi.NativeAdoption;
import dev.quiver.plugin.Backends;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.internal.backend.HostMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import dev.quiver.spi.host.HostDevice;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The argument checks {@link Devices} puts in front of every device, here of a plugin written as a vendor
 * would (the test double checks nothing itself), and the one host device the API and a CPU backend share.
 */
class CommonChecksTest {
    private final TestDoubleProvider vendor = new TestDoubleProvider("vendor", DeviceTypeCodes.EXT_DEV, 0);
    private final Devices devices = Backends.devices(List.of(vendor), BackendSelection.all());
    private final BackendDevice first = Backends.of(devices.get(DeviceType.EXT_DEV, 0));
    private final BackendDevice second = Backends.of(devices.get(DeviceType.EXT_DEV, 1));
    private final DeviceEvents firstEvents = first.capability(DeviceEvents.class).orElseThrow();
    private final EventWaits firstWaits = first.capability(EventWaits.class).orElseThrow();
    private final NativeAdoption firstAdoption = first.capability(NativeAdoption.class).orElseThrow();
    private final DeviceEvents secondEvents = second.capability(DeviceEvents.class).orElseThrow();
    private final EventWaits secondWaits = second.capability(EventWaits.class).orElseThrow();

    @Test
    void aVendorsDevicesAreServedBehindTheChecks() {
        BackendDevice raw = ((ProbeResult.Available) vendor.probe()).devices().getFirst();
        raw.free(raw.allocate(-1, 8));
        assertEquals("byteSize is negative: -1", message(() -> first.allocate(-1, 8)));
        assertEquals("alignment must be a power of two, not 48", message(() -> first.allocate(8, 48)));
        assertSame(first, Backends.of(devices.get(DeviceType.EXT_DEV, 0)), "one checked view per device");
    }

    @Test
    void memoryOfAnotherDeviceIsRefused() {
        MemorySegment buffer = first.allocate(64, 64);
        try (Arena arena = Arena.ofConfined()) {
            String hex = "0x" + Long.toHexString(buffer.address());
            assertEquals("source " + hex + " is memory of " + first + ", not of " + second,
                    message(() -> second.copyToHost(buffer, 0, arena.allocate(8), second.defaultStream())));
            assertEquals("destination " + hex + " is memory of " + first + ", not of " + second,
                    message(() -> second.copyFromHost(arena.allocate(8), buffer, 0, second.defaultStream())));
            assertEquals(hex + " was not allocated by " + second + " but by " + first, message(() -> second.free(buffer)));
            first.copyFromHost(arena.allocate(8), buffer, 56, first.defaultStream());
        } finally {
            first.free(buffer);
        }
    }

    @Test
    void nullHandlesAreRefusedWhereOneIsRequired() {
        MemorySegment stream = first.defaultStream();
        assertEquals("event is NULL", message(() -> firstEvents.recordEvent(MemorySegment.NULL, stream)));
        assertEquals("event is NULL", message(() -> firstWaits.waitEvent(MemorySegment.NULL)));
        assertEquals("event is NULL", message(() -> firstWaits.streamWaitEvent(stream, MemorySegment.NULL)));
        assertEquals("event is NULL", message(() -> firstWaits.isEventComplete(MemorySegment.NULL)));
        assertEquals("event is NULL", message(() -> firstEvents.destroyEvent(MemorySegment.NULL)));
        assertEquals("syncEvent is NULL", message(() -> firstWaits.eventFromSyncEvent(MemorySegment.NULL)));
        assertEquals("nativeStream is NULL", message(() -> firstAdoption.adoptStream(MemorySegment.NULL)));
        assertEquals("nativeEvent is NULL", message(() -> firstEvents.adoptEvent(MemorySegment.NULL)));
        assertEquals(List.of(), vendor.eventRecords, "nothing reached the backend");
    }

    @Test
    void everyMethodIsForwarded() {
        MemorySegment adopted = firstAdoption.adoptStream(MemorySegment.ofAddress(0x5000_0000L));
        assertEquals(0x5000_0000L, adopted.address(), "the default adoption hands the handle back");
        MemorySegment event = firstEvents.adoptEvent(MemorySegment.ofAddress(0x6000_0000L));
        firstEvents.recordEvent(event, adopted);
        firstWaits.streamWaitEvent(adopted, event);
        assertEquals(List.of(new TestDoubleProvider.EventRecord(0x6000_0000L, 0x5000_0000L)), vendor.eventRecords);
        assertEquals(List.of(new TestDoubleProvider.StreamWait(0x5000_0000L, 0x6000_0000L)), vendor.streamWaits);
        assertEquals("stream 0x50000000 is stream of " + first + ", not of " + second,
                message(() -> second.synchronizeStream(adopted)));
        assertEquals("event 0x60000000 is event of " + first + ", not of " + second, message(() -> secondWaits.waitEvent(event)));
        firstEvents.forgetEvent(event, true);
        firstAdoption.forgetStream(adopted, false);
        assertEquals(List.of(0x6000_0000L), vendor.destroyedEvents, "forgetting with destroy destroys the event");
        second.synchronizeStream(adopted);
        assertEquals("vendor test double 0", first.name());
    }

    @Test
    void aNewRecordedEventOfAPluginWithoutItIsMadeAndRecordedAndBelongsToItsDevice() {
        MemorySegment stream = firstAdoption.adoptStream(MemorySegment.ofAddress(0x5100_0000L));
        try {
            assertEquals("stream 0x51000000 is stream of " + first + ", not of " + second,
                    message(() -> secondEvents.recordNewEvent(stream)));
            assertEquals(List.of(), vendor.eventRecords, "a refused call reaches no backend");
            MemorySegment event = firstEvents.recordNewEvent(stream);
            assertEquals(List.of(new TestDoubleProvider.EventRecord(event.address(), 0x5100_0000L)), vendor.eventRecords,
                    "the default makes the event and records it");
            assertEquals("event 0x" + Long.toHexString(event.address()) + " is event of " + first + ", not of " + second,
                    message(() -> secondEvents.destroyEvent(event)));
            firstEvents.destroyEvent(event);
            assertEquals(List.of(event.address()), vendor.destroyedEvents);
        } finally {
            firstAdoption.forgetStream(stream, false);
        }
    }

    @Test
    void theApiAndACpuBackendShareOneHostDevice() {
        DeviceProvider cpu = HostProvider.host();
        Devices withCpu = Backends.devices(List.of(cpu, vendor), BackendSelection.all());
        assertSame(HostMemory.device(), Backends.of(withCpu.cpu()), "the CPU device is the host the API copies to");
        assertNotSame(HostDevice.instance(), HostMemory.device(), "the API copies through the checks too");
        HostVector values = HostVector.int32("v", 1, 2, null);
        try (DeviceArray onHost = values.toDeviceArray(withCpu);
             DeviceArray onVendor = Copies.toDevice(onHost, withCpu.get(DeviceType.EXT_DEV, 0));
             DeviceArray back = Copies.toHost(onVendor)) {
            assertEquals(values.values(), ArrayReader.of(back).values());
        }
    }

    private static String message(Executable call) {
        return assertThrows(IllegalArgumentException.class, call).getMessage();
    }
}
