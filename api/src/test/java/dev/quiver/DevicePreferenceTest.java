package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.testkit.backend.TestDoubleProvider;
import dev.quiver.testkit.SystemProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Devices#ranked()} and {@link Devices#preferred()} over test double OpenCL and CUDA devices and the
 * host, in the default order and as the {@value DeviceRanking#PROPERTY} property reorders them. The property
 * is set only around each call and restored after, so other tests never see it; an empty value stands for
 * "not set" whatever the environment holds (the environment variable is tested in a JVM of its own).
 */
class DevicePreferenceTest {
    private final Devices devices = Backends.devices(List.of(new TestDoubleProvider("ocl", DeviceTypeCodes.OPENCL, 0),
            new TestDoubleProvider("cu", DeviceTypeCodes.CUDA, 0), HostProvider.host()), BackendSelection.all());
    private String saved;

    @BeforeEach
    void rememberTheProperty() {
        saved = System.getProperty(DeviceRanking.PROPERTY);
    }

    @AfterEach
    void thePropertyIsAsBefore() {
        assertTrue(Objects.equals(saved, System.getProperty(DeviceRanking.PROPERTY)), "property restored");
    }

    @Test
    void acceleratorsComeFirstByDefaultThenTheHost() {
        SystemProperties.with(DeviceRanking.PROPERTY, "", () -> {
            assertEquals(List.of("CUDA:0", "CUDA:1", "OPENCL:0", "OPENCL:1", "CPU:-1"), names(devices.ranked()));
            assertEquals("CUDA:0", name(devices.preferred()));
        });
    }

    @Test
    void thePropertyPutsTheTypesItNamesFirstAndTheRestInTheDefaultOrder() {
        SystemProperties.with(DeviceRanking.PROPERTY, " OpenCL , cpu", () -> {
            assertEquals(List.of("OPENCL:0", "OPENCL:1", "CPU:-1", "CUDA:0", "CUDA:1"), names(devices.ranked()));
            assertEquals("OPENCL:0", name(devices.preferred()));
        });
        SystemProperties.with(DeviceRanking.PROPERTY, "cpu", () -> assertEquals("CPU:-1", name(devices.preferred())));
        SystemProperties.with(DeviceRanking.PROPERTY, "", () -> assertEquals("CUDA:0", name(devices.preferred()),
                "read at each call, not kept"));
    }

    @Test
    void anUnknownTypeInThePropertyIsNamed() {
        SystemProperties.with(DeviceRanking.PROPERTY, "opencl,tpu", () -> {
            var error = assertThrows(IllegalArgumentException.class, devices::preferred);
            assertTrue(error.getMessage().startsWith("quiver.deviceRanking: unknown device type \"tpu\"; known: [cuda"), error.getMessage());
        });
    }

    @Test
    void noUsableDeviceIsAnErrorWithTheReasons() {
        Devices none = Backends.devices(List.of(TestDoubleProvider.unavailable("rocm", DeviceTypeCodes.ROCM, "no ROCm driver")),
                BackendSelection.all());
        SystemProperties.with(DeviceRanking.PROPERTY, "", () -> {
            assertEquals(List.of(), none.ranked());
            var error = assertThrows(NoSuchElementException.class, none::preferred);
            assertTrue(error.getMessage().startsWith("no usable device") && error.getMessage().contains("no ROCm driver"), error.getMessage());
        });
    }

    static List<String> names(List<Device> ranked) {
        return ranked.stream().map(DevicePreferenceTest::name).toList();
    }

    private static String name(Device device) {
        return device.type() + ":" + device.id();
    }
}
