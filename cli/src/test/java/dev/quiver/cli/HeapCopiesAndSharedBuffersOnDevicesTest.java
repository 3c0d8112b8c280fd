package dev.quiver.cli;

import dev.quiver.Copies;
import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * On real drivers (OpenCL on PoCL, Vulkan on lavapipe): a {@code long[]} moves to device memory and back with
 * no native copy by the caller, a range of an array moves without a slice to close, and an array built on the
 * device shares another device array's buffer and keeps it alive.
 */
class HeapCopiesAndSharedBuffersOnDevicesTest {
    private static final Devices DEVICES = Devices.system();

    @ParameterizedTest
    @ValueSource(strings = {"OPENCL", "VULKAN"})
    void heapArraysRangesAndSharedBuffers(String type) {
        Device device = DEVICES.get(type.equals("OPENCL") ? DeviceType.OPENCL : DeviceType.VULKAN, 0);
        long[] values = {5, 6, 7, 8, 9, 10, 11, 12};
        try (DeviceBuffer buffer = device.allocate(values.length * 8L)) {
            buffer.copyFromHost(MemorySegment.ofArray(values), 0, device.defaultStream());
            long[] back = new long[values.length];
            buffer.copyToHost(0, MemorySegment.ofArray(back), device.defaultStream());
            assertArrayEquals(values, back);
        }
        long exports = Diagnostics.liveExports();
        try (DeviceArray host = HostVector.int64("x", 1L, 2L, null, 4L, 5L).toDeviceArray(DEVICES);
             DeviceArray slice = host.slice(1, 3);
             DeviceArray range = Copies.toDevice(slice, device)) {
            DeviceArray onDevice = Copies.toDevice(host, device);
            DeviceArray shared = ArrayBuilder.of(Field.of("x", new ArrowType.Int(64, true), true), device)
                    .length(5).nullCount(1).sharedBuffer(onDevice, 0).sharedBuffer(onDevice, 1).build();
            onDevice.close();
            try (shared; DeviceArray back = Copies.toHost(shared); DeviceArray rangeBack = Copies.toHost(range)) {
                assertEquals(Arrays.asList(1L, 2L, null, 4L, 5L), ArrayReader.of(back).values());
                assertEquals(Arrays.asList(2L, null, 4L), ArrayReader.of(rangeBack).values());
            }
        }
        assertEquals(exports, Diagnostics.liveExports(), "everything released once");
    }
}
