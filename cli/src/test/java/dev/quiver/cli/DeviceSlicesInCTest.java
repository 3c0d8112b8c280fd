package dev.quiver.cli;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.HostVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random nested batches on OpenCL (PoCL) and Vulkan (lavapipe), sliced at random offsets and exported: a C
 * consumer ({@link CDeviceSliceConsumer}) walks the slice's ArrowDeviceArray and finds the device, the
 * slice's length, offset and null count, and every buffer handle of the parent's tree unchanged (zero-copy).
 * On OpenCL it also reads the {@code id} column out of the {@code cl_mem} with OpenCL calls of its own and
 * finds the values Java expects.
 */
class DeviceSlicesInCTest {
    private static final Devices DEVICES = Devices.system();

    @ParameterizedTest
    @ValueSource(strings = {"OPENCL", "VULKAN"})
    void aCConsumerSeesTheSliceOverTheParentsBuffers(String name) {
        DeviceType type = DeviceType.byName(name).orElseThrow();
        Device device = DEVICES.get(type, 0);
        Random random = new Random(type.code() * 31L);
        for (int round = 0; round < 8; round++) {
            HostVector batch = RandomBatches.nested(random, 200 + random.nextInt(600));
            int offset = random.nextInt((int) batch.length());
            int length = random.nextInt((int) batch.length() - offset + 1);
            long exports = Diagnostics.liveExports();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment parentExport = ArrowDeviceArrayLayout.allocate(arena);
                MemorySegment parentSchema = ArrowSchemaLayout.allocate(arena);
                MemorySegment sliceExport = ArrowDeviceArrayLayout.allocate(arena);
                MemorySegment sliceSchema = ArrowSchemaLayout.allocate(arena);
                try (DeviceArray host = batch.toDeviceArray(DEVICES); DeviceArray onDevice = Copies.toDevice(host, device);
                     DeviceArray slice = onDevice.slice(offset, length)) {
                    Interchange.exportShared(onDevice, parentExport, parentSchema);
                    Interchange.exportShared(slice, sliceExport, sliceSchema);
                    long[] parent = CDeviceSliceConsumer.describe(parentExport);
                    long[] seen = CDeviceSliceConsumer.describe(sliceExport);
                    String where = type + " round " + round + ", slice " + offset + "+" + length;
                    assertEquals(List.of((long) type.code(), device.id(), slice.syncEvent().isPresent() ? 1L : 0L),
                            List.of(seen[0], seen[1], seen[2]), where + ": device_type, device_id, sync_event");
                    for (int i = 0; i < slice.bufferCount(); i++) {
                        assertEquals(slice.buffer(i).pointer().address(), seen[CDeviceSliceConsumer.FIRST_BUFFER + i], where + ": buffer " + i);
                    }
                    long[] expected = parent.clone();
                    expected[CDeviceSliceConsumer.LENGTH] = length;
                    expected[CDeviceSliceConsumer.OFFSET] = parent[CDeviceSliceConsumer.OFFSET] + offset;
                    expected[CDeviceSliceConsumer.NULL_COUNT] = slice.nullCount();
                    assertArrayEquals(expected, seen, where + ": the parent's tree and buffers, with the slice's length and offset");
                    if (type == DeviceType.OPENCL) {
                        List<Object> rows = batch.slice(offset, length).values();
                        List<Object> ids = rows.stream().map(row -> (Object) ((Map<?, ?>) row).get("id")).toList();
                        assertEquals(ids, CDeviceSliceConsumer.readInt32Member(sliceExport, 0, length), where + ": ids read in C");
                    }
                }
                assertEquals(0, CDeviceSliceConsumer.release(sliceExport, sliceSchema), "released from C");
                assertEquals(0, CDeviceSliceConsumer.release(parentExport, parentSchema), "released from C");
            }
            assertEquals(exports, Diagnostics.liveExports(), "every export released");
        }
    }
}
