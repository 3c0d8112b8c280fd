package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each kind of backend failure becomes the API's exception of that kind, with the device, call and code as
 * fields; a backend's vendor class is only ever the cause. The backend is a test double (named so) that throws
 * what it is told to.
 */
class DriverExceptionsTest {
    private final TestDoubleProvider vendor = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
    private final Devices devices = Backends.devices(List.of(vendor), BackendSelection.all());
    private final Device device = devices.get(DeviceType.EXT_DEV, 0);

    @Test
    void aLostDeviceIsADeviceLostExceptionWithTheVendorCallAndCode() {
        DeviceException lost = new DeviceException("vkQueueSubmit failed: VK_ERROR_DEVICE_LOST (-4)", "vkQueueSubmit", -4,
                "VK_ERROR_DEVICE_LOST", DeviceException.Kind.DEVICE_LOST);
        vendor.recordFailure = lost;
        DeviceLostException thrown = assertThrows(DeviceLostException.class, () -> device.defaultStream().recordEvent());
        assertEquals("EXT_DEV:0: vkQueueSubmit failed: VK_ERROR_DEVICE_LOST (-4)", thrown.getMessage());
        assertEquals("EXT_DEV:0", thrown.device());
        assertEquals("vkQueueSubmit", thrown.call().orElseThrow());
        assertEquals(OptionalLong.of(-4), thrown.code());
        assertEquals("VK_ERROR_DEVICE_LOST", thrown.codeName().orElseThrow());
        assertSame(lost, thrown.getCause());
    }

    @Test
    void anyOtherFailureIsADriverExceptionWithoutACallWhereNoneFailed() {
        vendor.recordFailure = new DeviceException("the queue is wedged");
        DriverException thrown = assertThrows(DriverException.class, () -> device.defaultStream().recordEvent());
        assertFalse(thrown instanceof DeviceOutOfMemoryException || thrown instanceof DeviceLostException, thrown.toString());
        assertEquals("EXT_DEV:0: the queue is wedged", thrown.getMessage());
        assertTrue(thrown.call().isEmpty());
        assertTrue(thrown.code().isEmpty(), "no code without a call");
        assertTrue(thrown.codeName().isEmpty());
    }

    @Test
    void argumentErrorsStayIllegalArgumentExceptions() {
        assertThrows(IllegalArgumentException.class, () -> device.allocate(-1));
        assertThrows(IllegalArgumentException.class, () -> device.allocate(8, 3));
    }
}
