package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a lookup probes (only the providers of the type asked for) and how the listing probes (side by side). */
class DevicesProbingTest {

    @Test
    void aLookupProbesOnlyTheProvidersOfItsType() {
        TestDoubleProvider ext = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
        TestDoubleProvider vpi = new TestDoubleProvider("vpi", DeviceTypeCodes.VPI, 0);
        Devices devices = Backends.devices(List.of(ext, vpi), BackendSelection.all());
        Device device = devices.get(DeviceType.EXT_DEV, 1);
        assertEquals(1, ext.probes.get());
        assertEquals(0, vpi.probes.get(), "a provider of another type is not probed");
        assertThrows(NoBackendException.class, () -> devices.get(DeviceType.EXT_DEV, 7));
        assertEquals(0, vpi.probes.get(), "nor to explain a missing device");
        assertSame(device, devices.all().stream().filter(d -> d.type() == DeviceType.EXT_DEV && d.id() == 1).findFirst().orElseThrow(),
                "the listing serves the same device object");
        assertEquals(1, vpi.probes.get());
        assertEquals(1, ext.probes.get(), "still probed once");
    }

    @Test
    void aLookupStillPicksTheHigherPriorityAmongTheProvidersOfItsType() {
        TestDoubleProvider low = new TestDoubleProvider("vendor-a", DeviceTypeCodes.EXT_DEV, 0);
        TestDoubleProvider high = new TestDoubleProvider("vendor-b", DeviceTypeCodes.EXT_DEV, 10);
        Devices devices = Backends.devices(List.of(low, high), BackendSelection.all());
        assertEquals("vendor-b", devices.get(DeviceType.EXT_DEV, 0).provider());
        NoBackendException missing = assertThrows(NoBackendException.class, () -> devices.get(DeviceType.EXT_DEV, 5));
        assertTrue(missing.getMessage().contains("vendor-a: USABLE (EXT_DEV is served by vendor-b (priority 10 over 0))"), missing.getMessage());
    }

    @Test
    void theListingProbesProvidersSideBySide() {
        CountDownLatch bothStarted = new CountDownLatch(2);
        Devices devices = Backends.devices(List.of(new Rendezvous("first", bothStarted), new Rendezvous("second", bothStarted)),
                BackendSelection.all());
        List<ProviderReport> report = devices.report();
        assertEquals(List.of("first", "second"), report.stream().map(ProviderReport::name).toList());
        for (ProviderReport provider : report) {
            assertEquals(List.of("met the other probe"), provider.reasons(),
                    "each probe ran while the other was running: " + report);
        }
    }

    /** A provider whose probe waits, for a bounded time, until another probe has started too. */
    private record Rendezvous(String name, CountDownLatch started) implements DeviceProvider {
        @Override
        public int[] deviceTypes() {
            return new int[] {DeviceTypeCodes.EXT_DEV};
        }

        @Override
        public ProbeResult probe() {
            started.countDown();
            try {
                return ProbeResult.unavailable(started.await(1, TimeUnit.MINUTES) ? "met the other probe" : "probed alone");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ProbeResult.unavailable("interrupted");
            }
        }
    }
}
