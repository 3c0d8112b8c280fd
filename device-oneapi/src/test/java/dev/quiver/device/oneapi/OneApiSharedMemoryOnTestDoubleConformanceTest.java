package dev.quiver.device.oneapi;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;
import org.junit.jupiter.api.AfterAll;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The oneAPI backend with shared memory ({@code zeMemAllocShared}, host accessible) against the conformance
 * suite, on the test double of Level Zero ({@code fake_libze_loader.c}). Not a claim about Level Zero
 * hardware.
 */
class OneApiSharedMemoryOnTestDoubleConformanceTest extends DeviceProviderConformance {
    @Override
    protected DeviceProvider provider() {
        return OneApiTestDouble.provider(OneApiMemory.SHARED);
    }

    @AfterAll
    void theTestDoubleSawEveryResourceReleased() {
        releasePools();
        assertEquals(OneApiTestDouble.idle(), OneApiTestDouble.library().liveResources(), "resources left in the test double");
    }
}
