package dev.quiver.device.oneapi;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.ProbeResult;
import dev.quiver.tck.DeferredWorkChecks;
import dev.quiver.testkit.SystemProperties;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Behaviour of the oneAPI backend beyond the conformance suite, on the test double of Level Zero
 * ({@code fake_libze_loader.c}): enumeration, the memory kinds and library property, asynchronous staged
 * copies, error mapping, and the {@code sycl::event*} rules for an imported {@code sync_event} (that exported
 * arrays carry none is checked by the conformance suite's round trip). Not a claim about Level
 * Zero hardware.
 */
class OneApiOnTestDoubleTest {

    private static List<BackendDevice> devices(OneApiProvider provider) {
        ProbeResult result = provider.probe();
        return assertInstanceOf(ProbeResult.Available.class, result, result.toString()).devices();
    }

    @Test
    void everyDeviceOfEveryDriverIsServedWithTheChosenMemory() {
        List<BackendDevice> devices = devices(OneApiTestDouble.provider(OneApiMemory.DEVICE));
        assertEquals(List.of("ONEAPI:0 Level Zero test double (host memory)", "ONEAPI:1 Level Zero test double (host memory)"),
                devices.stream().map(Object::toString).toList());
        BackendDevice device = devices.get(1);
        assertEquals(3L << 30, device.totalMemory(), "the sum of the device's memories");
        assertEquals("GPU", device.properties().get("type"));
        assertEquals("zeMemAllocDevice", device.properties().get("allocator"));
        assertFalse(device.hostAccessible());
        assertFalse(device.capability(DeviceEvents.class).isPresent(), "Level Zero cannot make the sycl::event the spec prescribes");
        BackendDevice host = devices(OneApiTestDouble.provider(OneApiMemory.HOST)).get(0);
        assertTrue(host.hostAccessible());
        assertEquals("zeMemAllocHost", host.properties().get("allocator"));
        assertSame(devices.get(0), devices(OneApiTestDouble.provider(OneApiMemory.DEVICE)).get(0), "a second probe finds the same devices");
    }

    @Test
    void thePropertiesSelectTheLoaderAndTheMemory() {
        SystemProperties.with(OneApiProvider.LIBRARY_PROPERTY, OneApiTestDouble.library().path().toString(), () ->
                SystemProperties.with(OneApiProvider.MEMORY_PROPERTY, "Shared", () -> {
                    BackendDevice device = devices(new OneApiProvider()).get(0);
                    assertEquals("zeMemAllocShared", device.properties().get("allocator"));
                    assertTrue(device.hostAccessible());
                }));
        SystemProperties.with(OneApiProvider.MEMORY_PROPERTY, "texture", () -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new OneApiProvider().memory());
            assertEquals("unknown oneAPI memory kind \"texture\": use device, shared or host", e.getMessage());
        });
    }

    @Test
    void copiesAreAsynchronousUntilTheStreamIsSynchronized() {
        DeferredWorkChecks.copiesCompleteWhenTheStreamIsSynchronized(devices(OneApiTestDouble.provider(OneApiMemory.DEVICE)).get(1));
    }

    @Test
    void levelZeroErrorsNameTheCallAndTheResult() {
        BackendDevice device = devices(OneApiTestDouble.provider(OneApiMemory.DEVICE)).get(0);
        MemorySegment buffer = device.allocate(8, 8);
        try (Arena arena = Arena.ofConfined()) {
            OneApiException e = assertThrows(OneApiException.class,
                    () -> device.copyFromHost(arena.allocate(16), buffer, 0, MemorySegment.NULL));
            assertEquals("zeCommandListAppendMemoryCopy failed: ZE_RESULT_ERROR_INVALID_ARGUMENT", e.getMessage());
            assertEquals("zeCommandListAppendMemoryCopy", e.call());
            assertEquals("ZE_RESULT_ERROR_INVALID_ARGUMENT", e.resultName());
        } finally {
            device.free(buffer);
        }
        assertThrows(IllegalArgumentException.class, () -> device.destroyStream(device.defaultStream()));
        assertThrows(IllegalArgumentException.class, () -> device.synchronizeStream(MemorySegment.ofAddress(64)));
        assertEquals(OneApiTestDouble.idle(), OneApiTestDouble.library().liveResources(), "the failed copy's staging memory was freed");
    }

    @Test
    void anImportedSyclEventWithoutAWaiterFailsClearly() {
        BackendDevice device = devices(OneApiTestDouble.provider(OneApiMemory.DEVICE)).get(0);
        EventWaits eventWaits = device.capability(EventWaits.class).orElseThrow();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment syclEvent = arena.allocate(64);
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> eventWaits.eventFromSyncEvent(syclEvent));
            assertTrue(e.getMessage().contains("is a sycl::event*, which Level Zero cannot wait on; register a waiter for it with "
                    + "dev.quiver.device.oneapi.SyclEventWaiters.register"), e.getMessage());
            assertThrows(UnsupportedOperationException.class, () -> eventWaits.waitEvent(syclEvent));
            assertThrows(UnsupportedOperationException.class, () -> eventWaits.isEventComplete(syclEvent));
            assertThrows(UnsupportedOperationException.class, () -> eventWaits.streamWaitEvent(device.defaultStream(), syclEvent));
            assertTrue(device.capability(DeviceEvents.class).isEmpty(), "the device makes no events of its own");
        }
    }

    @Test
    void anImportedSyclEventIsHonouredThroughTheRegisteredWaiter() {
        BackendDevice device = devices(OneApiTestDouble.provider(OneApiMemory.DEVICE)).get(0);
        EventWaits eventWaits = device.capability(EventWaits.class).orElseThrow();
        AtomicInteger waits = new AtomicInteger();
        SyclEventWaiters.Waiter waiter = new SyclEventWaiters.Waiter() {
            @Override
            public void await() {
                waits.incrementAndGet();
            }

            @Override
            public boolean isComplete() {
                return waits.get() > 0;
            }
        };
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment syclEvent = arena.allocate(64);
            try (SyclEventWaiters.Registration _ = SyclEventWaiters.register(syclEvent, waiter)) {
                assertThrows(IllegalStateException.class, () -> SyclEventWaiters.register(syclEvent, waiter), "one waiter per event");
                MemorySegment event = eventWaits.eventFromSyncEvent(syclEvent);
                assertEquals(syclEvent.address(), event.address(), "the handle is the sycl::event* itself");
                assertFalse(eventWaits.isEventComplete(event));
                eventWaits.streamWaitEvent(device.defaultStream(), event);
                assertEquals(1, waits.get(), "a stream wait is a host wait through the waiter");
                eventWaits.waitEvent(event);
                assertEquals(2, waits.get());
                assertTrue(eventWaits.isEventComplete(event));
            }
            assertThrows(UnsupportedOperationException.class, () -> eventWaits.waitEvent(syclEvent), "closing the registration removes the waiter");
        }
        assertThrows(IllegalArgumentException.class, () -> SyclEventWaiters.register(MemorySegment.NULL, waiter));
    }
}
