package dev.quiver.device.cuda;

import dev.quiver.spi.ProbeResult;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * What the CUDA probe reports on a machine without the NVIDIA driver (this build machine and CI): the
 * reason, exactly, and no exception. Runs in its own JVM (see the pom), so no test double is loaded.
 */
class CudaProbeOnThisMachineTest {

    @Test
    void constructionAndMetadataDoNoNativeWork() {
        CudaProvider provider = new CudaProvider();
        assertEquals("cuda", provider.name());
        assertArrayEquals(new int[] {2, 3, 13}, provider.deviceTypes());
        assertNull(System.getProperty(CudaProvider.LIBRARY_PROPERTY), "the property is unset here");
        assertEquals("libcuda.so.1", provider.library());
    }

    @Test
    void probeSaysTheDriverIsNotInstalled() {
        assertEquals(new ProbeResult.Unavailable(List.of("CUDA driver not installed (libcuda.so.1 not found)")),
                new CudaProvider().probe());
        assertEquals(new ProbeResult.Unavailable(List.of("CUDA driver not installed (libcuda.so.1 not found)")),
                new CudaProvider().probe(), "a second probe says the same");
    }

    @Test
    void probeOfAMissingLibraryFileNamesTheFile() {
        assertEquals(new ProbeResult.Unavailable(List.of("CUDA driver not installed (/nonexistent/libcuda.so.1 not found)")),
                new CudaProvider(Path.of("/nonexistent/libcuda.so.1")).probe());
    }
}
