package dev.quiver.device.cuda;

import dev.quiver.spi.DeviceException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Interoperation through a driver that cannot be loaded fails with the probe's reason, as a device failure. */
class CudaInteropOnThisMachineTest {
    private final CudaInterop interop = new CudaInterop(new CudaProvider(Path.of("/nonexistent/libcuda.so.1")));

    @Test
    void describingAPointerSaysWhyTheDriverCannotBeUsed() {
        DeviceException e = assertThrows(DeviceException.class, () -> interop.describe(MemorySegment.ofAddress(4096)));
        assertEquals("CUDA driver not installed (/nonexistent/libcuda.so.1 not found)", e.getMessage());
        assertEquals(DeviceException.Kind.FAILURE, e.kind());
    }

    @Test
    void adoptingAContextSaysWhyTheDriverCannotBeUsed() {
        assertEquals("CUDA driver not installed (/nonexistent/libcuda.so.1 not found)",
                assertThrows(DeviceException.class, () -> interop.adoptContext(4096)).getMessage());
    }
}
