package dev.quiver.internal.backend;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A backend is named by its own {@code toString()} where it writes one, else by its type code, id and name. */
class DeviceLabelsTest {

    /** A backend device whose {@code toString()} says {@code label}, or Object's text where {@code label} is null. */
    private static BackendDevice backend(String label) {
        return (BackendDevice) Proxy.newProxyInstance(BackendDevice.class.getClassLoader(), new Class<?>[] {BackendDevice.class},
                (proxy, method, arguments) -> switch (method.getName()) {
                    case "toString" -> label != null ? label
                            : proxy.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(proxy));
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "deviceType" -> DeviceTypeCodes.OPENCL;
                    case "deviceId" -> 2L;
                    case "name" -> "a test device";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aBackendThatWritesItsNameIsCalledByIt() {
        assertEquals("OpenCL device 2 (PoCL)", DeviceLabels.of(backend("OpenCL device 2 (PoCL)")));
    }

    @Test
    void aBackendThatWritesNoneIsCalledByItsCodes() {
        assertEquals("device type 4 id 2 (a test device)", DeviceLabels.of(backend(null)));
    }

    @Test
    void typeAndIdSpellsArrowsName() {
        assertEquals("OPENCL:2", DeviceLabels.typeAndId(backend(null)));
    }
}
