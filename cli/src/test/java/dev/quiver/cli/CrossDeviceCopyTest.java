package dev.quiver.cli;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole arrays across real drivers: CPU -> OpenCL (PoCL) -> Vulkan (lavapipe) -> CPU. Both backends must be
 * usable here: a missing driver fails these tests.
 */
class CrossDeviceCopyTest {
    private static final Devices DEVICES = Devices.system();

    @Test
    void aRandomNestedBatchTravelsCpuOpenClVulkanCpu() {
        Device opencl = DEVICES.get(DeviceType.OPENCL, 0);
        Device vulkan = DEVICES.get(DeviceType.VULKAN, 0);
        for (long seed = 1; seed <= 5; seed++) {
            HostVector batch = RandomBatches.nested(new Random(seed), 2_000);
            long exports = Diagnostics.liveExports();
            try (DeviceArray host = batch.toDeviceArray(DEVICES);
                 DeviceArray onOpenCl = Copies.toDevice(host, opencl);
                 DeviceArray onVulkan = Copies.toDevice(onOpenCl, vulkan);
                 DeviceArray back = Copies.toDevice(onVulkan, DEVICES.cpu())) {
                assertEquals(DeviceType.VULKAN, onVulkan.deviceType());
                Interchange.validateFull(back);
                assertEquals(batch.values(), ArrayReader.of(back).values(), "seed " + seed);
            }
            assertEquals(exports, Diagnostics.liveExports(), "seed " + seed + ": every copy released");
        }
    }

    @Test
    void aThousandRowSliceOfAMillionStringsMovesOnlyItsBytesToEachDevice() {
        List<Object> strings = new ArrayList<>(1_000_000);
        for (int i = 0; i < 1_000_000; i++) {
            strings.add(i % 10 == 0 ? null : "value-" + i);
        }
        HostVector slice = HostVector.of(Field.of("s", new ArrowType.Utf8(), true), strings).slice(400_001, 1_000);
        long sliceBytes = 1_000 * 14 + 1_001 * 4 + 1_000 / 8 + 1;
        for (DeviceType type : List.of(DeviceType.OPENCL, DeviceType.VULKAN)) {
            try (DeviceArray host = slice.toDeviceArray(DEVICES)) {
                long before = Diagnostics.bytesCopied();
                try (DeviceArray onDevice = Copies.toDevice(host, DEVICES.get(type, 0))) {
                    long moved = Diagnostics.bytesCopied() - before;
                    assertTrue(moved <= sliceBytes, type + ": moved " + moved + " bytes for a slice of about " + sliceBytes);
                    try (DeviceArray back = Copies.toHost(onDevice)) {
                        assertEquals(slice.values(), ArrayReader.of(back).values());
                    }
                }
            }
        }
    }
}
