package dev.quiver.cli;

import dev.quiver.Copies;
import dev.quiver.ArrayBuilder;
import dev.quiver.Interchange;
import dev.quiver.KeepAlive;
import dev.quiver.ImportOptions;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.InvalidArrowException;
import dev.quiver.SyncEvent;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The public API a computing library builds on, on real drivers: the CPU, OpenCL on PoCL and Vulkan on
 * lavapipe (with the validation layer). Both drivers must be usable here: a missing one fails these tests.
 */
class ComputeApiOnDevicesTest {
    private static final Devices DEVICES = Devices.system();

    private static Device device(String type) {
        return switch (type) {
            case "cpu" -> DEVICES.cpu();
            case "opencl" -> DEVICES.get(DeviceType.OPENCL, 0);
            case "vulkan" -> DEVICES.get(DeviceType.VULKAN, 0);
            default -> throw new IllegalArgumentException(type);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"cpu", "opencl", "vulkan"})
    void anInt64ColumnBuiltFromAllocatedBuffersReadsBackWithItsOffsetAndNulls(String type) {
        Device device = device(type);
        long exports = Diagnostics.liveExports();
        long[] values = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
        byte validity = (byte) 0b1110_1101;   // slots 1 and 4 null
        byte validityHigh = (byte) 0b0000_0011;
        try (Arena arena = Arena.ofConfined(); DeviceStream stream = device.createStream()) {
            MemorySegment hostValues = arena.allocate(JAVA_LONG, values.length);
            MemorySegment.copy(values, 0, hostValues, JAVA_LONG, 0, values.length);
            MemorySegment hostValidity = arena.allocate(2);
            hostValidity.set(JAVA_BYTE, 0, validity);
            hostValidity.set(JAVA_BYTE, 1, validityHigh);
            DeviceBuffer valueBuffer = device.allocate(hostValues.byteSize());
            DeviceBuffer validityBuffer = device.allocate(2);
            valueBuffer.copyFromHost(hostValues, 0, stream);
            validityBuffer.copyFromHost(hostValidity, 0, stream);
            var builder = ArrayBuilder.of(Field.of("x", new ArrowType.Int(64, true), true), device)
                    .length(8).offset(2).nullCount(1).buffer(validityBuffer).buffer(valueBuffer);
            if (device.type().eventType().isPresent()) {
                builder.syncEvent(stream.recordEvent());
            } else {
                stream.synchronize();
            }
            try (DeviceArray column = builder.build()) {
                assertThrows(IllegalStateException.class, valueBuffer::pointer, "moved into the array");
                assertEquals(2, column.offset());
                assertEquals(2, column.bufferCount());
                assertEquals(device.type(), column.buffer(1).deviceType());
                assertEquals(80, column.buffer(1).byteSize(), "offset + length slots of 8 bytes");
                assertEquals(2, column.buffer(0).byteSize());
                try (DeviceArray host = Copies.toHost(column)) {
                    assertEquals(Arrays.asList(12L, 13L, null, 15L, 16L, 17L, 18L, 19L), ArrayReader.of(host).values());
                }
                try (DeviceArray slice = column.slice(1, 3); DeviceArray host = Copies.toHost(slice)) {
                    assertEquals(Arrays.asList(13L, null, 15L), ArrayReader.of(host).values());
                }
            }
        }
        assertEquals(exports, Diagnostics.liveExports(), "every array released");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cpu", "opencl", "vulkan"})
    void randomNestedBatchesSlicedAtRandomOffsetsOnTheDeviceCopyOnlyWhatTheyHold(String type) {
        Device device = device(type);
        Random random = new Random(type.hashCode());
        for (int round = 0; round < 6; round++) {
            HostVector batch = RandomBatches.nested(random, 300 + random.nextInt(700));
            long exports = Diagnostics.liveExports();
            try (DeviceArray host = batch.toDeviceArray(DEVICES); DeviceArray onDevice = Copies.toDevice(host, device)) {
                long offset = random.nextInt((int) batch.length());
                long length = random.nextInt((int) (batch.length() - offset) + 1);
                long copied = Diagnostics.bytesCopied();
                try (DeviceArray slice = onDevice.slice(offset, length);
                     DeviceArray sliceOfSlice = slice.slice(length / 3, length - length / 3)) {
                    assertEquals(copied, Diagnostics.bytesCopied(), "slicing moves no bytes");
                    assertEquals(onDevice.offset() + offset, slice.offset());
                    assertEquals(slice.buffer(0).pointer(), onDevice.buffer(0).pointer(), "same buffers");
                    List<Object> expected = batch.slice(offset, length).values();
                    try (DeviceArray back = Copies.toHost(slice)) {
                        assertEquals(expected, ArrayReader.of(back).values(), type + " round " + round);
                    }
                    try (DeviceArray back = Copies.toDevice(sliceOfSlice, DEVICES.cpu())) {
                        assertEquals(expected.subList((int) (length / 3), (int) length), ArrayReader.of(back).values());
                    }
                    try (DeviceArray roundTrip = throughCStructs(slice); DeviceArray back = Copies.toHost(roundTrip)) {
                        assertEquals(expected, ArrayReader.of(back).values(), "exported and imported again");
                    }
                    for (int i = 0; i < slice.childCount(); i++) {
                        try (DeviceArray child = slice.child(i); DeviceArray back = Copies.toHost(child)) {
                            String name = batch.field().children().get(i).name();
                            List<Object> column = new ArrayList<>();
                            for (Object row : expected) {
                                column.add(((java.util.Map<?, ?>) row).get(name));
                            }
                            assertEquals(column, ArrayReader.of(back).values(), "child " + name + " of the slice");
                        }
                    }
                }
            }
            assertEquals(exports, Diagnostics.liveExports(), "every slice, child and copy released");
        }
    }

    @Test
    void aCopyWithinOneDeviceWaitsOnTheDeviceAndOutlivesItsSource() {
        Device opencl = device("opencl");
        HostVector column = HostVector.int64("x", 1L, null, 3L, 4L, 5L);
        DeviceArray copy;
        try (DeviceArray host = column.toDeviceArray(DEVICES); DeviceArray onDevice = Copies.toDevice(host, opencl);
             DeviceStream stream = opencl.createStream()) {
            copy = Copies.toDevice(onDevice, opencl, stream);
        }
        try (copy) {
            SyncEvent event = copy.syncEvent().orElseThrow();
            event.waitOnHost();
            try (DeviceArray back = Copies.toHost(copy)) {
                assertEquals(column.values(), ArrayReader.of(back).values());
            }
        }
    }

    @Test
    void aKeepAliveReferenceHoldsTheBuffersAfterTheOwnerCloses() {
        long exports = Diagnostics.liveExports();
        DeviceArray array = HostVector.int64("x", 7L, 8L).toDeviceArray(DEVICES);
        KeepAlive reference = array.retain();
        MemorySegment values = array.buffer(1).asSegment();
        array.close();
        assertEquals(8L, values.getAtIndex(JAVA_LONG, 1), "memory still alive");
        assertTrue(Diagnostics.liveExports() > exports);
        reference.close();
        reference.close();
        assertEquals(exports, Diagnostics.liveExports());
    }

    @Test
    void badUseGetsAClearErrorAndLeaksNothing() {
        Device opencl = device("opencl");
        Device vulkan = device("vulkan");
        long exports = Diagnostics.liveExports();
        Field int64 = Field.of("x", new ArrowType.Int(64, true), true);
        try (DeviceBuffer clBuffer = opencl.allocate(64); DeviceBuffer vkBuffer = vulkan.allocate(8);
             DeviceStream clStream = opencl.createStream(); DeviceStream vkStream = vulkan.createStream()) {
            var wrongDevice = assertThrows(IllegalArgumentException.class, () -> ArrayBuilder.of(int64, vulkan)
                    .length(1).absentBuffer().buffer(clBuffer).build());
            assertTrue(wrongDevice.getMessage().contains("buffers[1] is on OPENCL:0"), wrongDevice.getMessage());
            var tooSmall = assertThrows(IllegalArgumentException.class, () -> ArrayBuilder.of(int64, vulkan)
                    .length(2).absentBuffer().buffer(vkBuffer).build());
            assertTrue(tooSmall.getMessage().contains("holds 8 bytes"), tooSmall.getMessage());
            var wrongCount = assertThrows(InvalidArrowException.class, () -> ArrayBuilder.of(int64, opencl)
                    .length(1).buffer(clBuffer).build());
            assertTrue(wrongCount.getMessage().contains("n_buffers"), wrongCount.getMessage());
            try (SyncEvent clEvent = clStream.recordEvent()) {
                var wrongEvent = assertThrows(IllegalArgumentException.class, () -> ArrayBuilder.of(int64, vulkan)
                        .length(0).absentBuffer().buffer(vkBuffer).syncEvent(clEvent).build());
                assertTrue(wrongEvent.getMessage().contains("syncEvent is on OPENCL:0"), wrongEvent.getMessage());
                assertThrows(IllegalArgumentException.class, () -> vkStream.waitFor(clEvent));
            }
            assertThrows(IllegalArgumentException.class, () -> clBuffer.copyToHost(0, MemorySegment.ofArray(new byte[8]), vkStream));
            assertThrows(IndexOutOfBoundsException.class, () -> clBuffer.copyToHost(60, MemorySegment.ofArray(new byte[8]), clStream));
            assertThrows(IllegalArgumentException.class, () -> opencl.allocate(8, 3));
            // nothing moved on failure: the buffers are still the caller's
            assertFalse(clBuffer.pointer().equals(MemorySegment.NULL));
        }
        DeviceArray array = HostVector.int64("x", 1L, 2L, 3L).toDeviceArray(DEVICES);
        DeviceBuffer view = array.buffer(1);
        assertThrows(IndexOutOfBoundsException.class, () -> array.slice(2, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> array.slice(-1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> array.buffer(2));
        assertThrows(IndexOutOfBoundsException.class, () -> array.child(0));
        assertThrows(java.util.NoSuchElementException.class, () -> array.child(array.field().childIndex("y")));
        array.close();
        assertThrows(IllegalStateException.class, view::pointer);
        assertThrows(IllegalStateException.class, () -> array.slice(0, 1));
        assertThrows(IllegalStateException.class, array::retain);
        assertThrows(IllegalArgumentException.class, () -> ArrayBuilder.of(Field.struct("s", false, List.of(
                Field.of("x", new ArrowType.Int(64, true), true))), DEVICES.cpu()).length(0).absentBuffer().child(array).build());
        assertEquals(exports, Diagnostics.liveExports(), "nothing leaked on the error paths");
    }

    private static DeviceArray throughCStructs(DeviceArray array) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment deviceArray = ArrowDeviceArrayLayout.allocate(arena);
            MemorySegment schema = ArrowSchemaLayout.allocate(arena);
            Interchange.exportShared(array, deviceArray, schema);
            return Interchange.importDevice(deviceArray, schema, ImportOptions.on(DEVICES));
        }
    }
}
