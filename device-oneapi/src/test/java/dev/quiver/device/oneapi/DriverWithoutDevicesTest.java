package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.testkit.TestDoubleLibrary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Level Zero driver that reports no device (the test double compiled with {@code -DDEVICES_FOUND=0}) leaves the
 * backend unavailable, saying why, and holds no context of it: a context is made only for a driver with devices.
 */
class DriverWithoutDevicesTest {
    @Test
    void aDriverWithoutDevicesIsUnavailableAndGetsNoContext() {
        TestDoubleLibrary empty = TestDoubleLibrary.build(OneApiTestDouble.class, List.of("fake_libze_loader.c"), LevelZero.LIBRARY,
                List.of("-DDEVICES_FOUND=0"));
        BackendUnavailableException e = assertThrows(BackendUnavailableException.class, () -> LevelZero.open(empty.path().toString()));
        assertTrue(e.getMessage().startsWith("no Level Zero device: zeDeviceGet found none on 1 driver(s)"), e.getMessage());
        assertEquals(0, empty.counter("test_double_live_contexts"), "no context was made for a driver without devices");
    }
}
