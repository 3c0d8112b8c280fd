package dev.quiver.device.cuda;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import dev.quiver.tck.DeferredWorkChecks;
import dev.quiver.testkit.SystemProperties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Behaviour of the CUDA backend beyond the conformance suite, on the test double of the CUDA driver
 * ({@code fake_libcuda.c}) with two devices: enumeration, the library property, asynchronous copies,
 * event polling, error mapping, the context stack, pointer attributes and adoption. Not a claim about
 * NVIDIA hardware.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CudaOnTestDoubleTest {
    private List<BackendDevice> devices;

    @BeforeAll
    void twoDevices() {
        ProbeResult result = CudaTestDouble.provider().probe();
        devices = assertInstanceOf(ProbeResult.Available.class, result, result.toString()).devices();
    }

    private BackendDevice device(int type, long id) {
        return devices.stream().filter(d -> d.deviceType() == type && d.deviceId() == id).findFirst().orElseThrow();
    }

    @Test
    void everyDeviceHasThreeKindsOfMemoryInItsPrimaryContext() {
        assertEquals(List.of("CUDA:0", "CUDA_HOST:0", "CUDA_MANAGED:0", "CUDA:1", "CUDA_HOST:1", "CUDA_MANAGED:1"),
                devices.stream().map(d -> d.toString().substring(0, d.toString().indexOf(' '))).toList());
        BackendDevice cuda = device(DeviceTypeCodes.CUDA, 1);
        assertEquals("CUDA test double (host memory)", cuda.name());
        assertEquals(1L << 30, cuda.totalMemory());
        assertEquals("9.0", cuda.properties().get("compute capability"));
        assertEquals("CUDA 12.4", cuda.properties().get("driver"));
        assertEquals("primary", cuda.properties().get("context"));
        assertFalse(cuda.hostAccessible());
        assertTrue(device(DeviceTypeCodes.CUDA_HOST, 0).hostAccessible());
        assertTrue(device(DeviceTypeCodes.CUDA_MANAGED, 0).hostAccessible());
    }

    @Test
    void theLibraryPropertySelectsTheDriver() {
        SystemProperties.with(CudaProvider.LIBRARY_PROPERTY, CudaTestDouble.library().path().toString(), () ->
                assertEquals(devices, assertInstanceOf(ProbeResult.Available.class, new CudaProvider().probe()).devices(),
                        "the same library and devices"));
    }

    @Test
    void copiesAreAsynchronousUntilTheStreamIsSynchronized() {
        DeferredWorkChecks.copiesCompleteWhenTheStreamIsSynchronized(device(DeviceTypeCodes.CUDA, 1));
    }

    @Test
    void anEventIsIncompleteUntilItsWorkRuns() {
        DeferredWorkChecks.eventQueriesSeeProgress(device(DeviceTypeCodes.CUDA, 1));
    }

    @Test
    void driverErrorsNameTheCallAndTheError() {
        BackendDevice cuda = device(DeviceTypeCodes.CUDA, 0);
        MemorySegment buffer = cuda.allocate(8, 8);
        try (Arena arena = Arena.ofConfined()) {
            CudaException e = assertThrows(CudaException.class,
                    () -> cuda.copyFromHost(arena.allocate(16), buffer, 0, MemorySegment.NULL));
            assertEquals("cuMemcpyHtoDAsync failed: CUDA_ERROR_INVALID_VALUE (test double: CUDA_ERROR_INVALID_VALUE)", e.getMessage());
            assertEquals("cuMemcpyHtoDAsync", e.call());
            assertEquals(1, e.result());
            assertEquals("CUDA_ERROR_INVALID_VALUE", e.errorName());
        } finally {
            cuda.free(buffer);
        }
        CudaException destroyed = assertThrows(CudaException.class, () -> cuda.capability(DeviceEvents.class).orElseThrow().destroyEvent(MemorySegment.ofAddress(8)));
        assertEquals("CUDA_ERROR_INVALID_HANDLE", destroyed.errorName());
    }

    /** Through {@link Devices}, as applications use the backend: the API's common checks stand in front. */
    @Test
    void badArgumentsAreRejectedBeforeTheDriver() {
        Devices served = Backends.devices(List.of(CudaTestDouble.provider()), BackendSelection.all());
        BackendDevice cuda = Backends.of(served.get(DeviceType.CUDA, 0));
        assertThrows(IllegalArgumentException.class, () -> cuda.allocate(8, 512), "CUDA guarantees 256-byte alignment only");
        assertThrows(IllegalArgumentException.class, () -> cuda.allocate(-1, 8));
        MemorySegment buffer = cuda.allocate(8, 8);
        IllegalArgumentException wrongDevice = assertThrows(IllegalArgumentException.class,
                () -> Backends.of(served.get(DeviceType.CUDA_HOST, 0)).free(buffer));
        assertTrue(wrongDevice.getMessage().contains("was not allocated by CUDA_HOST:0"), wrongDevice.getMessage());
        cuda.free(buffer);
        assertThrows(IllegalArgumentException.class, () -> cuda.free(buffer), "double free");
        assertThrows(IllegalArgumentException.class, () -> cuda.destroyStream(MemorySegment.NULL));
    }

    @Test
    void callsLeaveTheThreadsContextStackAsItWas() {
        assertEquals(0, CudaTestDouble.counter("context_depth"));
        CudaTestDouble.pushPrimaryContext(1);
        try {
            BackendDevice cuda = device(DeviceTypeCodes.CUDA, 0);
            cuda.free(cuda.allocate(64, 64));
            assertEquals(1, CudaTestDouble.counter("context_depth"), "the application's context is still current");
        } finally {
            CudaTestDouble.popContext();
        }
    }

    @Test
    void pointerAttributesTellTheKindAndDeviceOfForeignMemory() {
        CudaInterop interop = new CudaInterop(CudaTestDouble.provider());
        for (BackendDevice device : devices) {
            MemorySegment pointer = device.allocate(1000, 64);
            try {
                assertEquals(Optional.of(new CudaPointerInfo(device.deviceType(), device.deviceId())),
                        interop.describe(MemorySegment.ofAddress(pointer.address() + 999)), device.toString());
            } finally {
                device.free(pointer);
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(Optional.empty(), interop.describe(arena.allocate(8)), "plain host memory is not CUDA memory");
        }
    }

    @Test
    void anAdoptedContextServesItsDevice() {
        CudaInterop interop = new CudaInterop(CudaTestDouble.provider());
        long context = CudaTestDouble.counter("primary_context");
        DeviceProvider adopted = interop.adoptContext(context);
        List<BackendDevice> served = assertInstanceOf(ProbeResult.Available.class, adopted.probe()).devices();
        assertEquals(3, served.size());
        BackendDevice cuda = served.getFirst();
        assertEquals(DeviceTypeCodes.CUDA, cuda.deviceType());
        assertEquals(0, cuda.deviceId());
        assertEquals("adopted 0x" + Long.toHexString(context), cuda.properties().get("context"));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = cuda.allocate(32, 32);
            MemorySegment back = arena.allocate(32);
            cuda.copyFromHost(arena.allocate(32).fill((byte) 3), buffer, 0, MemorySegment.NULL);
            cuda.copyToHost(buffer, 0, back, MemorySegment.NULL);
            cuda.synchronizeStream(MemorySegment.NULL);
            assertEquals(3, back.get(JAVA_BYTE, 31));
            cuda.free(buffer);
        }
        assertThrows(IllegalArgumentException.class, () -> interop.adoptContext(0));
    }

    @Test
    void anAdoptedStreamMustBelongToTheDevicesContext() {
        CudaInterop interop = new CudaInterop(CudaTestDouble.provider());
        BackendDevice first = device(DeviceTypeCodes.CUDA, 0);
        BackendDevice second = device(DeviceTypeCodes.CUDA, 1);
        MemorySegment foreign = second.createStream();
        try {
            assertEquals(foreign, interop.adoptStream(second, foreign.address()));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> interop.adoptStream(first, foreign.address()));
            assertTrue(e.getMessage().contains("belongs to CUcontext"), e.getMessage());
        } finally {
            second.destroyStream(foreign);
        }
    }

    @Test
    void destroyedEventsAreKeptForTheNextRecordAndReleasedOnRequest() {
        BackendDevice cuda = device(DeviceTypeCodes.CUDA, 0);
        DeviceEvents events = cuda.capability(DeviceEvents.class).orElseThrow();
        EventWaits waits = cuda.capability(EventWaits.class).orElseThrow();
        cuda.releaseCaches();
        long before = CudaTestDouble.library().liveResources().get("events");
        MemorySegment stream = cuda.createStream();
        try {
            MemorySegment first = events.recordNewEvent(stream);
            waits.waitEvent(first);
            events.destroyEvent(first);
            assertEquals(before + 1, CudaTestDouble.library().liveResources().get("events"), "the destroyed event is pooled, not destroyed");
            MemorySegment second = events.recordNewEvent(stream);
            assertEquals(first.address(), second.address(), "the next record reuses it");
            assertTrue(waits.isEventComplete(second) || waits.isEventComplete(second), "it completes once recorded again");
            events.destroyEvent(second);
            MemorySegment made = events.createEvent();
            assertEquals(first.address(), made.address(), "createEvent takes from the pool too");
            events.destroyEvent(made);
        } finally {
            cuda.destroyStream(stream);
        }
        cuda.releaseCaches();
        assertEquals(before, CudaTestDouble.library().liveResources().get("events"), "releaseCaches destroys the pooled events");
        assertEquals(0, CudaTestDouble.counter("context_depth"), "waits and queries without a context leave the stack as it was");
    }
}
