package dev.quiver.device.cuda;

import dev.quiver.spi.ProbeResult;
import dev.quiver.testkit.TestDoubleLibrary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The probe on a test double of a CUDA 11 driver ({@code fake_libcuda_11.c}): no {@code cuGetProcAddress_v2}. */
class CudaDriverTooOldOnTestDoubleTest {

    @Test
    void probeSaysTheDriverIsTooOld() {
        TestDoubleLibrary old = TestDoubleLibrary.build(CudaDriverTooOldOnTestDoubleTest.class, List.of("fake_libcuda_11.c"),
                CudaProvider.DEFAULT_LIBRARY, List.of("-I" + CudaTestDouble.INCLUDE));
        assertEquals(new ProbeResult.Unavailable(List.of("CUDA driver too old: " + old.path()
                        + " has no cuGetProcAddress_v2 (a CUDA 12.0 or newer driver is needed)")),
                new CudaProvider(old.path()).probe());
    }
}
