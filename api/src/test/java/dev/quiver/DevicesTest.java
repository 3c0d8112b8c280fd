package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.NoSuchElementException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DevicesTest {

    @Test
    void probesLazilyAndOnlyOnce() {
        TestDoubleProvider provider = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
        Devices devices = Backends.devices(List.of(provider), BackendSelection.all());
        assertEquals(0, provider.probes.get(), "making Devices probes nothing");
        assertEquals(2, devices.all().size());
        devices.report();
        devices.find(DeviceType.EXT_DEV, 1);
        assertEquals(1, provider.probes.get(), "probed once, result kept");
    }

    @Test
    void higherPriorityServesASharedDeviceType() {
        TestDoubleProvider low = new TestDoubleProvider("vendor-a", DeviceTypeCodes.EXT_DEV, 0);
        TestDoubleProvider high = new TestDoubleProvider("vendor-b", DeviceTypeCodes.EXT_DEV, 10);
        Devices devices = Backends.devices(List.of(low, high), BackendSelection.all());
        Device device = devices.get(DeviceType.EXT_DEV, 0);
        assertEquals("vendor-b", device.provider());
        ProviderReport lowReport = report(devices, "vendor-a");
        assertEquals(ProviderReport.Status.USABLE, lowReport.status());
        assertTrue(lowReport.devices().isEmpty());
        assertEquals(List.of("EXT_DEV is served by vendor-b (priority 10 over 0)"), lowReport.reasons());
    }

    @Test
    void anUnavailableProviderDoesNotShadowAUsableOne() {
        TestDoubleProvider broken = TestDoubleProvider.unavailable("vendor-a", DeviceTypeCodes.EXT_DEV, "no driver: libfoo.so not found");
        TestDoubleProvider working = new TestDoubleProvider("vendor-b", DeviceTypeCodes.EXT_DEV, -5);
        Devices devices = Backends.devices(List.of(broken, working), BackendSelection.all());
        assertEquals("vendor-b", devices.get(DeviceType.EXT_DEV, 1).provider());
        assertEquals(List.of("no driver: libfoo.so not found"), report(devices, "vendor-a").reasons());
    }

    @Test
    void selectionChoosesAndExcludesByName() {
        TestDoubleProvider a = new TestDoubleProvider("alpha", DeviceTypeCodes.EXT_DEV, 0);
        TestDoubleProvider b = new TestDoubleProvider("beta", DeviceTypeCodes.VPI, 0);
        Devices onlyBeta = Backends.devices(List.of(a, b), BackendSelection.parse("beta"));
        assertEquals(ProviderReport.Status.EXCLUDED, report(onlyBeta, "alpha").status());
        assertTrue(report(onlyBeta, "alpha").reasons().getFirst().contains("not chosen by quiver.backends"));
        assertEquals(0, a.probes.get(), "an excluded provider is never probed");
        Devices notBeta = Backends.devices(List.of(a, b), BackendSelection.parse(" -Beta , "));
        assertEquals(ProviderReport.Status.EXCLUDED, report(notBeta, "beta").status());
        assertEquals(ProviderReport.Status.USABLE, report(notBeta, "alpha").status());
    }

    @Test
    void selectionIsReadFromTheSystemProperty() {
        String saved = System.getProperty(BackendSelection.PROPERTY);
        try {
            System.setProperty(BackendSelection.PROPERTY, "cpu,-vulkan");
            BackendSelection selection = BackendSelection.fromEnvironment();
            assertEquals(java.util.Set.of("cpu"), selection.chosen());
            assertEquals(java.util.Set.of("vulkan"), selection.excluded());
        } finally {
            if (saved == null) {
                System.clearProperty(BackendSelection.PROPERTY);
            } else {
                System.setProperty(BackendSelection.PROPERTY, saved);
            }
        }
    }

    @Test
    void aThrowingProbeIsReportedAsFailedNotPropagated() {
        TestDoubleProvider bad = TestDoubleProvider.throwing("bad", DeviceTypeCodes.EXT_DEV);
        try (CapturedLog log = CapturedLog.of("dev.quiver.devices")) {
            Devices devices = Backends.devices(List.of(bad), BackendSelection.all());
            ProviderReport report = report(devices, "bad");
            assertEquals(ProviderReport.Status.FAILED, report.status());
            assertTrue(report.reasons().getFirst().contains("test double probe failure"));
            assertEquals(List.of("probe of bad threw"), log.messages(), "and logged as a warning");
        }
    }

    @Test
    void missingDevicesAreExplained() {
        TestDoubleProvider broken = TestDoubleProvider.unavailable("vendor-a", DeviceTypeCodes.EXT_DEV, "no device found");
        Devices devices = Backends.devices(List.of(broken), BackendSelection.all());
        NoSuchElementException noDevice = assertThrows(NoSuchElementException.class, () -> devices.get(DeviceType.EXT_DEV, 0));
        assertTrue(noDevice.getMessage().contains("vendor-a: UNAVAILABLE (no device found)"), noDevice.getMessage());
        NoSuchElementException noBackend = assertThrows(NoSuchElementException.class, () -> devices.get(DeviceType.of(17), 0));
        assertTrue(noBackend.getMessage().contains("no backend serves device type UNKNOWN(17) (code 17)"), noBackend.getMessage());
    }

    private static ProviderReport report(Devices devices, String name) {
        return devices.report().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
    }
}
