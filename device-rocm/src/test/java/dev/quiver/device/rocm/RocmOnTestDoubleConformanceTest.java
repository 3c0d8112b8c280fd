package dev.quiver.device.rocm;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;
import org.junit.jupiter.api.AfterAll;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ROCm backend against the conformance suite, on the test double of the HIP runtime
 * ({@code fake_libamdhip64.c}): the backend's own allocation, copy, stream, event, export/import and release
 * paths run against HIP as {@code hip_runtime_api.h} declares it. Not a claim about AMD hardware; see
 * {@code scripts/gpu-smoke} for that.
 */
class RocmOnTestDoubleConformanceTest extends DeviceProviderConformance {
    @Override
    protected DeviceProvider provider() {
        return RocmTestDouble.provider();
    }

    @AfterAll
    void theTestDoubleSawEveryResourceReleased() {
        releasePools();
        assertEquals(Map.of("allocations", 0L, "streams", 0L, "events", 0L), RocmTestDouble.library().liveResources(),
                "resources left in the test double");
        assertEquals(0, RocmTestDouble.counter("current_device"), "this thread's current device is as it was");
        assertTrue(RocmTestDouble.counter("device_switches") > 0, "work for device 1 made it current");
        assertTrue(RocmTestDouble.counter("executed_copies") > 0, "copies ran through the test double's queues");
    }
}
