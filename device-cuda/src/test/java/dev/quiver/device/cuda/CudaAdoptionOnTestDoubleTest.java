package dev.quiver.device.cuda;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.NativeAdoption;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.tck.AdoptionChecks;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

import static dev.quiver.device.cuda.CudaTestDouble.device;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Native handles and adoption in the CUDA backend, on the test double of the CUDA driver
 * ({@code fake_libcuda.c}, two devices): streams and events the test double makes as an application would
 * are adopted, used in every operation, forgotten with and without destroying, and counted in the test
 * double; handles of another context or of no live object are refused. Not a claim about NVIDIA hardware.
 */
class CudaAdoptionOnTestDoubleTest {

    private static long live(String kind) {
        return CudaTestDouble.library().liveResources().get(kind);
    }

    @Test
    void nativeHandlesAreTheDeviceAndItsPrimaryContext() {
        NativeAdoption first = device(DeviceTypeCodes.CUDA, 0).capability(NativeAdoption.class).orElseThrow();
        assertEquals(List.of("CUdevice", "CUcontext"), List.copyOf(first.nativeHandles().keySet()));
        assertEquals(MemorySegment.ofAddress(0), first.nativeHandles().get("CUdevice"), "the CUdevice of ordinal 0");
        assertEquals(CudaTestDouble.counter("primary_context"), first.nativeHandles().get("CUcontext").address());
        assertEquals(first.nativeHandles(), device(DeviceTypeCodes.CUDA_MANAGED, 0).capability(NativeAdoption.class).orElseThrow().nativeHandles(), "every kind of memory shares the context");
        Map<String, MemorySegment> second = device(DeviceTypeCodes.CUDA, 1).capability(NativeAdoption.class).orElseThrow().nativeHandles();
        assertEquals(MemorySegment.ofAddress(1), second.get("CUdevice"));
        assertTrue(second.get("CUcontext").address() != first.nativeHandles().get("CUcontext").address(), "one primary context per device");
    }

    @Test
    void anApplicationStreamIsAdoptedUsedAndForgotten() {
        BackendDevice cuda = device(DeviceTypeCodes.CUDA, 1);
        BackendDevice pinned = device(DeviceTypeCodes.CUDA_HOST, 1);
        NativeAdoption adoption = cuda.capability(NativeAdoption.class).orElseThrow();
        NativeAdoption pinnedAdoption = pinned.capability(NativeAdoption.class).orElseThrow();
        MemorySegment stream = CudaTestDouble.applicationStream(1);
        assertEquals(stream, adoption.adoptStream(stream), "a CUstream is its own handle");
        AdoptionChecks.forgettingDestroysOnlyWhenAsked("CUstream", stream, () -> live("streams"), adoption::adoptStream, adopted -> {
            AdoptionChecks.everyOperationOnStream(cuda, adopted);
            AdoptionChecks.everyOperationOnStream(pinned, pinnedAdoption.adoptStream(adopted));
        }, adoption::forgetStream);
    }

    @Test
    void anApplicationEventIsAdoptedUsedAndForgotten() {
        BackendDevice cuda = device(DeviceTypeCodes.CUDA, 0);
        MemorySegment event = CudaTestDouble.applicationEvent(0);
        assertEquals(event, cuda.capability(DeviceEvents.class).orElseThrow().adoptEvent(event), "a CUevent is its own handle");
        AdoptionChecks.nativeEventServesEveryOperation(cuda, event, () -> live("events"));
    }

    @Test
    void handlesOfAnotherContextOrOfNoLiveObjectAreRefused() {
        BackendDevice first = device(DeviceTypeCodes.CUDA, 0);
        NativeAdoption adoption = first.capability(NativeAdoption.class).orElseThrow();
        DeviceEvents events = first.capability(DeviceEvents.class).orElseThrow();
        MemorySegment foreign = CudaTestDouble.applicationStream(1);
        try {
            IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> adoption.adoptStream(foreign));
            assertTrue(other.getMessage().contains("belongs to CUcontext 0x"), other.getMessage());
        } finally {
            device(DeviceTypeCodes.CUDA, 1).capability(NativeAdoption.class).orElseThrow().forgetStream(foreign, true);
        }
        IllegalArgumentException gone = assertThrows(IllegalArgumentException.class, () -> adoption.adoptStream(foreign));
        assertTrue(gone.getMessage().contains("is not a live CUstream"), gone.getMessage());
        IllegalArgumentException noEvent = assertThrows(IllegalArgumentException.class, () -> events.adoptEvent(MemorySegment.ofAddress(8)));
        assertTrue(noEvent.getMessage().contains("is not a live CUevent"), noEvent.getMessage());
        assertEquals("CUevent is NULL", assertThrows(IllegalArgumentException.class, () -> events.adoptEvent(MemorySegment.NULL)).getMessage());
        assertEquals(MemorySegment.NULL, adoption.adoptStream(MemorySegment.NULL), "the legacy default stream belongs to every context");
    }
}
