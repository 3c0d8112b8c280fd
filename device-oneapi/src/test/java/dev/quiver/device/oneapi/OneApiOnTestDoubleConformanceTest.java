package dev.quiver.device.oneapi;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;
import org.junit.jupiter.api.AfterAll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The oneAPI backend with device memory ({@code zeMemAllocDevice}) against the conformance suite, on the
 * test double of Level Zero ({@code fake_libze_loader.c}): the backend's own allocation, staging copy,
 * command list, event pool, export/import and release paths run against Level Zero as {@code ze_api.h}
 * declares it. Not a claim about Level Zero hardware.
 */
class OneApiOnTestDoubleConformanceTest extends DeviceProviderConformance {
    @Override
    protected DeviceProvider provider() {
        return OneApiTestDouble.provider(OneApiMemory.DEVICE);
    }

    @AfterAll
    void theTestDoubleSawEveryResourceReleased() {
        releasePools();
        assertEquals(OneApiTestDouble.idle(), OneApiTestDouble.library().liveResources(), "resources left in the test double");
        assertTrue(OneApiTestDouble.library().counter("test_double_executed_copies") > 0, "copies ran through the test double's queues");
    }
}
