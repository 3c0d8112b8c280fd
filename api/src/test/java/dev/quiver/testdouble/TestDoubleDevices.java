package dev.quiver.testdouble;

import dev.quiver.spi.DeviceProvider;

/** Gives tests in other packages the test double backend of {@link TestDoubleProvider}. */
public final class TestDoubleDevices {
    private TestDoubleDevices() {}

    /**
     * @param code the device type code the test double serves
     * @return a new test double provider with two devices (ids 0 and 1) that the host cannot address
     */
    public static DeviceProvider provider(int code) {
        return new TestDoubleProvider("test-double", code, 0);
    }
}
