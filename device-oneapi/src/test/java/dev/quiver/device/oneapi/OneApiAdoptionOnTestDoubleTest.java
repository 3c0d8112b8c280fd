package dev.quiver.device.oneapi;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.NativeAdoption;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.ProbeResult;
import dev.quiver.tck.AdoptionChecks;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

import static dev.quiver.device.oneapi.ZeConstants.ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
import static dev.quiver.device.oneapi.ZeConstants.ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Native handles and adoption in the oneAPI backend, on the test double of Level Zero
 * ({@code fake_libze_loader.c}, one driver, two devices): an application makes its own immediate command list
 * on the context and device {@code nativeHandles()} names, with the test double's {@code ze_api.h} entry
 * point; the backend adopts it as a stream, uses it in every operation, and forgets it with and without
 * destroying, as the test double's counts of live command lists and events show. Not a claim about Level
 * Zero hardware.
 */
class OneApiAdoptionOnTestDoubleTest {

    private static List<BackendDevice> devices() {
        return assertInstanceOf(ProbeResult.Available.class, OneApiTestDouble.provider(OneApiMemory.DEVICE).probe()).devices();
    }

    private static long live(String kind) {
        return OneApiTestDouble.library().liveResources().get(kind);
    }

    /** What an application does with the handles: {@code zeCommandListCreateImmediate(context, device, &desc, &list)}. */
    private static MemorySegment applicationList(Map<String, MemorySegment> handles) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment desc = ZeStructs.zeroed(arena, ZeStructs.COMMAND_QUEUE_DESC, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
            ZeStructs.with(desc, ZeStructs.COMMAND_QUEUE_DESC, "mode", ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
            MemorySegment out = arena.allocate(ADDRESS);
            int result = (int) OneApiTestDouble.library().function("zeCommandListCreateImmediate",
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS))
                    .invokeExact(handles.get("ze_context_handle_t"), handles.get("ze_device_handle_t"), desc, out);
            assertEquals(0, result, "zeCommandListCreateImmediate");
            return out.get(ADDRESS, 0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Test
    void nativeHandlesAreTheDriverContextAndDevice() {
        Map<String, MemorySegment> first = devices().get(0).capability(NativeAdoption.class).orElseThrow().nativeHandles();
        Map<String, MemorySegment> second = devices().get(1).capability(NativeAdoption.class).orElseThrow().nativeHandles();
        assertEquals(List.of("ze_driver_handle_t", "ze_context_handle_t", "ze_device_handle_t"), List.copyOf(first.keySet()));
        assertEquals(first.get("ze_driver_handle_t"), second.get("ze_driver_handle_t"), "one driver");
        assertEquals(first.get("ze_context_handle_t"), second.get("ze_context_handle_t"), "one context per driver");
        assertNotEquals(first.get("ze_device_handle_t"), second.get("ze_device_handle_t"));
        BackendDevice shared = assertInstanceOf(ProbeResult.Available.class, OneApiTestDouble.provider(OneApiMemory.SHARED).probe()).devices().get(1);
        assertEquals(second, shared.capability(NativeAdoption.class).orElseThrow().nativeHandles(), "every memory kind of a device has its handles");
    }

    @Test
    void anApplicationCommandListIsAdoptedUsedAndForgotten() {
        BackendDevice device = devices().get(1);
        NativeAdoption adoption = device.capability(NativeAdoption.class).orElseThrow();
        long events = live("events");
        MemorySegment list = applicationList(adoption.nativeHandles());
        assertEquals(list, adoption.adoptStream(list), "the command list is its own stream handle");
        adoption.forgetStream(list, false);
        AdoptionChecks.nativeStreamServesEveryOperation(device, list, () -> live("streams"));
        assertEquals(events, live("events"), "the event the backend waited for the list with was given back");
    }

    @Test
    void aListAdoptedTwiceIsServedUntilForgottenTwice() {
        BackendDevice device = devices().get(0);
        NativeAdoption adoption = device.capability(NativeAdoption.class).orElseThrow();
        MemorySegment list = applicationList(adoption.nativeHandles());
        adoption.adoptStream(list);
        adoption.adoptStream(list);
        adoption.forgetStream(list, false);
        AdoptionChecks.everyOperationOnStream(device, list);
        adoption.forgetStream(list, true);
        IllegalArgumentException gone = assertThrows(IllegalArgumentException.class, () -> device.synchronizeStream(list));
        assertTrue(gone.getMessage().startsWith("not a live stream of Level Zero device 0"), gone.getMessage());
    }

    @Test
    void badHandlesAreRefused() {
        BackendDevice device = devices().get(0);
        NativeAdoption adoption = device.capability(NativeAdoption.class).orElseThrow();
        assertEquals(MemorySegment.NULL, adoption.adoptStream(MemorySegment.NULL), "NULL is the default stream");
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> adoption.forgetStream(MemorySegment.ofAddress(64), false));
        assertTrue(unknown.getMessage().startsWith("not a live stream of Level Zero device 0"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> adoption.forgetStream(MemorySegment.NULL, true), "the default stream is never destroyed");
        assertTrue(device.capability(DeviceEvents.class).isEmpty(),
                "the device has no events: sync events are sycl::event*, which Level Zero cannot make");
    }
}
