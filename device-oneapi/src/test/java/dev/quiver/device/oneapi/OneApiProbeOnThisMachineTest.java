package dev.quiver.device.oneapi;

import dev.quiver.spi.ProbeResult;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the oneAPI probe reports on this build machine and CI: Debian's real Level Zero loader
 * ({@code libze1}) is installed but no Level Zero driver, so {@code zeInit} fails. The exact reason, and no
 * exception. Runs in its own JVM (see the pom), so no test double is loaded.
 */
class OneApiProbeOnThisMachineTest {

    @Test
    void constructionAndMetadataDoNoNativeWork() {
        OneApiProvider provider = new OneApiProvider();
        assertEquals("oneapi", provider.name());
        assertArrayEquals(new int[] {14}, provider.deviceTypes());
        assertEquals("libze_loader.so.1", provider.library());
        assertEquals(OneApiMemory.DEVICE, provider.memory());
    }

    @Test
    void probeOfTheRealLoaderSaysThereIsNoDriver() {
        assertEquals(new ProbeResult.Unavailable(List.of("no Level Zero driver: zeInit returned ZE_RESULT_ERROR_UNINITIALIZED")),
                new OneApiProvider().probe());
    }

    @Test
    void probeOfAMissingLibraryFileNamesTheFile() {
        assertEquals(new ProbeResult.Unavailable(List.of("Level Zero loader not installed (/nonexistent/libze_loader.so.1 not found)")),
                new OneApiProvider(Path.of("/nonexistent/libze_loader.so.1"), OneApiMemory.DEVICE).probe());
    }
}
