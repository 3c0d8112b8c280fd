package dev.quiver.cli;

import dev.quiver.Device;
import dev.quiver.DeviceOutOfMemoryException;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.DriverException;
import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A driver's failure reaches an application as Quiver's own exception, with the device, the vendor call and
 * its code as fields and the backend's exception as the cause: no application names a backend's class to
 * catch running out of memory. Real drivers: OpenCL (PoCL) and Vulkan (lavapipe).
 */
class DriverErrorsAcrossBackendsTest {
    private static final Devices DEVICES = Devices.system();

    @Test
    void anAllocationBeyondAnOpenClDeviceIsOutOfMemoryNamingTheCallAndCode() {
        Device opencl = DEVICES.get(DeviceType.OPENCL, 0);
        DeviceOutOfMemoryException refused = assertThrows(DeviceOutOfMemoryException.class, () -> opencl.allocate(1L << 50));
        assertEquals("OPENCL:0", refused.device());
        assertEquals("clCreateBuffer", refused.call().orElseThrow());
        assertEquals(OptionalLong.of(-61), refused.code());
        assertEquals("CL_INVALID_BUFFER_SIZE", refused.codeName().orElseThrow());
        assertTrue(refused.getMessage().startsWith("OPENCL:0: clCreateBuffer failed: CL_INVALID_BUFFER_SIZE (-61)"), refused.getMessage());
        assertEquals("dev.quiver.device.opencl.OpenClException", refused.getCause().getClass().getName());
        assertEquals(0, opencl.memoryPool().stats().bytesInUse(), "nothing is held after the refusal");
    }

    @Test
    void anAllocationBeyondAVulkanDevicesLargestIsOutOfMemoryToo() {
        Device vulkan = DEVICES.get(DeviceType.VULKAN, 0);
        DeviceOutOfMemoryException refused = assertThrows(DeviceOutOfMemoryException.class, () -> vulkan.allocate(1L << 50));
        assertEquals("VULKAN:0", refused.device());
        assertTrue(refused.getMessage().contains("maxMemoryAllocationSize"), refused.getMessage());
    }

    @Test
    void oneCatchClauseServesEveryBackend() {
        for (Device device : DEVICES.all()) {
            if (device.type().equals(DeviceType.CPU)) {
                continue;
            }
            try {
                device.allocate(1L << 50).close();
            } catch (DriverException expected) {
                assertTrue(expected instanceof DeviceOutOfMemoryException, device + ": " + expected);
                assertEquals(device.type() + ":" + device.id(), expected.device());
            }
        }
    }
}
