package dev.quiver.device.metal;

import dev.quiver.spi.ProbeResult;
import dev.quiver.testkit.SystemProperties;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What the Metal probe reports on this build machine and CI (Linux): that Metal is macOS only, exactly,
 * without loading anything native and without throwing.
 */
class MetalProbeOnThisMachineTest {

    @Test
    void probeSaysMetalIsMacOsOnly() {
        assertEquals("Linux", System.getProperty("os.name"), "this test describes the Linux build machine");
        assertEquals(new ProbeResult.Unavailable(List.of("macOS only (this is Linux)")), new MetalProvider().probe());
        assertEquals(new ProbeResult.Unavailable(List.of("macOS only (this is Linux)")), new MetalProvider(MetalStorage.SHARED).probe());
    }

    @Test
    void metadataAndStorageModes() {
        MetalProvider provider = new MetalProvider();
        assertEquals("metal", provider.name());
        assertArrayEquals(new int[] {8}, provider.deviceTypes());
        assertEquals(MetalStorage.PRIVATE, provider.storage());
        SystemProperties.with(MetalProvider.STORAGE_PROPERTY, "Shared", () -> assertEquals(MetalStorage.SHARED, new MetalProvider().storage()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MetalStorage.parse("managed"));
        assertEquals("unknown Metal storage mode \"managed\": use private or shared", e.getMessage());
        assertEquals(32, MetalStorage.PRIVATE.options, "MTLResourceStorageModePrivate << MTLResourceStorageModeShift");
        assertEquals(0, MetalStorage.SHARED.options);
    }
}
