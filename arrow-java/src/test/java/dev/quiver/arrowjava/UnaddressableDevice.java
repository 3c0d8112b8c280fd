package dev.quiver.arrowjava;

import dev.quiver.BackendSelection;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.device.cpu.CpuProvider;
import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;

import java.util.List;

/**
 * A device that the host cannot address, for the bridge's refusal and explicit copy of such arrays: the CPU
 * backend beside testkit's test double of an {@code EXT_DEV} backend (one device, id 0, host memory behind
 * the SPI). It backs no claim about real hardware. Thread-safe, as the test double is.
 */
final class UnaddressableDevice {
    private final TestDoubleProvider testDouble =
            TestDoubleProvider.builder("test-double", DeviceTypeCodes.EXT_DEV).deviceCount(1).build();
    private final Devices devices = Backends.devices(List.of(new CpuProvider(), testDouble), BackendSelection.all());
    /** Every event the host waited on, in order. */
    final List<Long> hostWaits = testDouble.waitedEvents;

    /** @return the device registry with the CPU backend and the test double */
    Devices devices() {
        return devices;
    }

    /**
     * @return how many allocations are live once the memory pool in front of the device gave back what it
     *         caches: what arrays and buffers still hold
     */
    int liveAllocations() {
        devices.get(DeviceType.EXT_DEV, 0).memoryPool().trim();
        return testDouble.liveAllocations();
    }
}
