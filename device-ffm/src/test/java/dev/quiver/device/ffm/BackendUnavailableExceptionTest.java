package dev.quiver.device.ffm;

import dev.quiver.spi.DeviceException;
import dev.quiver.spi.ProbeResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one exception every backend throws for "this backend cannot be used here". */
class BackendUnavailableExceptionTest {

    @Test
    void itsMessageIsTheProbeReason() {
        String reason = "CUDA driver not installed (libcuda.so.1 not found)";
        BackendUnavailableException e = new BackendUnavailableException(reason);
        assertEquals(reason, e.getMessage());
        assertEquals(new ProbeResult.Unavailable(List.of(reason)), e.probeResult());
    }

    @Test
    void escapingAProbeItIsAPlainDeviceFailure() {
        DeviceException e = new BackendUnavailableException("no Level Zero driver: zeDriverGet found none");
        assertEquals(DeviceException.Kind.FAILURE, e.kind());
        assertTrue(e.vendorCall().isEmpty());
        assertTrue(e.vendorCodeName().isEmpty());
        assertEquals(0, e.vendorCode());
    }

    @Test
    void aBackendMustSayWhyItIsUnavailable() {
        assertEquals("reason", assertThrows(NullPointerException.class, () -> new BackendUnavailableException(null)).getMessage());
        assertEquals("an unavailable backend must say why",
                assertThrows(IllegalArgumentException.class, () -> new BackendUnavailableException(" ")).getMessage());
    }
}
