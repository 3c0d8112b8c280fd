package dev.quiver.device.rocm;

import dev.quiver.spi.ProbeResult;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the ROCm probe reports on this build machine and CI: Debian's real HIP runtime
 * ({@code libamdhip64-5}) is installed but there is no AMD GPU, so {@code hipGetDeviceCount} fails with
 * {@code hipErrorNoDevice}. The exact reason, and no exception. Runs in its own JVM (see the pom), so no test
 * double is loaded.
 */
class RocmProbeOnThisMachineTest {

    @Test
    void constructionAndMetadataDoNoNativeWork() {
        RocmProvider provider = new RocmProvider();
        assertEquals("rocm", provider.name());
        assertArrayEquals(new int[] {10, 11}, provider.deviceTypes());
        assertEquals(List.of("libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"), provider.libraries());
    }

    @Test
    void probeOfTheRealRuntimeSaysThereIsNoDevice() {
        assertEquals(new ProbeResult.Unavailable(List.of("no ROCm device: hipErrorNoDevice")), new RocmProvider().probe());
    }

    @Test
    void probeOfAMissingLibraryFileNamesTheFile() {
        assertEquals(new ProbeResult.Unavailable(List.of("ROCm HIP runtime not installed (/nonexistent/libamdhip64.so not found)")),
                new RocmProvider(Path.of("/nonexistent/libamdhip64.so")).probe());
    }
}
