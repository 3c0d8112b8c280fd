package dev.quiver.device.cuda;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;
import org.junit.jupiter.api.AfterAll;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CUDA backend against the conformance suite, on the test double of the CUDA driver
 * ({@code fake_libcuda.c}): the backend's own allocation, copy, stream, event, export/import and release
 * paths run against the driver API as {@code cuda.h} declares it. Not a claim about NVIDIA hardware; see
 * {@code scripts/gpu-smoke} for that.
 */
class CudaOnTestDoubleConformanceTest extends DeviceProviderConformance {
    @Override
    protected DeviceProvider provider() {
        return CudaTestDouble.provider();
    }

    @AfterAll
    void theTestDoubleSawEveryResourceReleasedAndEveryLookupVersioned() {
        releasePools();
        assertEquals(Map.of("allocations", 0L, "streams", 0L, "events", 0L), CudaTestDouble.library().liveResources(),
                "resources left in the test double");
        assertEquals(0, CudaTestDouble.counter("context_depth"), "this thread's context stack is as it was");
        assertEquals(CudaFunction.values().length - 1, CudaTestDouble.counter("lookups"),
                "every entry point but cuGetProcAddress_v2 was obtained through cuGetProcAddress_v2, once");
        assertEquals(CudaTestDouble.counter("lookups"), CudaTestDouble.counter("legacy_stream_lookups"),
                "every lookup asked for the legacy default stream variants");
        assertTrue(CudaTestDouble.counter("executed_copies") > 0, "copies ran through the test double's queues");
    }
}
