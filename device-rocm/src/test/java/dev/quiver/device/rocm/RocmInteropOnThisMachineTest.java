package dev.quiver.device.rocm;

import dev.quiver.spi.DeviceException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Asking a HIP runtime that cannot be loaded where a pointer lives fails with the probe's reason. */
class RocmInteropOnThisMachineTest {

    @Test
    void describingAPointerSaysWhyTheRuntimeCannotBeUsed() {
        RocmInterop interop = new RocmInterop(new RocmProvider(Path.of("/nonexistent/libamdhip64.so")));
        DeviceException e = assertThrows(DeviceException.class, () -> interop.describe(MemorySegment.ofAddress(4096)));
        assertEquals("ROCm HIP runtime not installed (/nonexistent/libamdhip64.so not found)", e.getMessage());
        assertEquals(DeviceException.Kind.FAILURE, e.kind());
    }
}
