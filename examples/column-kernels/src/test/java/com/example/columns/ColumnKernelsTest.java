package com.example.columns;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sums and filters on the CPU, on OpenCL (PoCL) and on Vulkan (lavapipe: through a host copy) equal plain
 * Java, for columns with nulls and offsets.
 */
class ColumnKernelsTest {
    private static final ColumnKernels KERNELS = new ColumnKernels();
    private static final long[] THRESHOLDS = {Long.MIN_VALUE, -1, 0, 500_000, Long.MAX_VALUE};

    static Stream<Device> devices() {
        return Stream.of(TestDevices.cpu(), TestDevices.openCl(), TestDevices.vulkan());
    }

    @AfterAll
    static void closeKernels() {
        KERNELS.close();
    }

    /** @return a new column holding {@code values} on {@code device}, owned by the caller */
    static DeviceArray column(Device device, Long[] values) {
        DeviceArray host = HostVector.int64("value", values).toDeviceArray();
        if (device.type().equals(DeviceType.CPU)) {
            return host;
        }
        try (host) {
            return Copies.toDevice(host, device);
        }
    }

    /** @return the values of a column without nulls, read on the host after its sync event */
    static long[] valuesOf(DeviceArray column) {
        assertEquals(0, column.nullCount());
        try (DeviceArray host = Copies.toHost(column)) {
            return host.buffer(1).asSegment()
                    .asSlice(host.offset() * Long.BYTES, host.length() * Long.BYTES)
                    .toArray(ValueLayout.JAVA_LONG);
        }
    }

    private static void assertKernelsAgree(Device device, DeviceArray column, Long[] values, int from, int length) {
        assertEquals(Int64Oracle.sum(values, from, length), KERNELS.sum(column), "sum of rows " + from + "+" + length);
        for (long threshold : THRESHOLDS) {
            try (DeviceArray kept = KERNELS.filterGreaterThan(column, threshold)) {
                assertEquals(device.type(), kept.deviceType());
                assertEquals(device.id(), kept.deviceId());
                assertEquals(0, kept.nullCount());
                assertEquals(0, kept.offset());
                assertEquals(MemorySegment.NULL, kept.buffer(0).pointer(), "no validity bitmap");
                assertArrayEquals(Int64Oracle.greaterThan(values, from, length, threshold), valuesOf(kept),
                        "rows " + from + "+" + length + " > " + threshold);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("devices")
    void slicesWithNullsEqualPlainJava(Device device) {
        Long[] values = Int64Oracle.randomColumn(11, 10_000, 5);
        int[][] slices = {{0, 10_000}, {3, 9_000}, {1_234, 1}, {9_999, 1}, {17, 0}, {8, 4_096}, {4_097, 5_903}};
        try (DeviceArray whole = column(device, values)) {
            for (int[] slice : slices) {
                try (DeviceArray part = whole.slice(slice[0], slice[1])) {
                    assertEquals(slice[0], part.offset());
                    assertKernelsAgree(device, part, values, slice[0], slice[1]);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("devices")
    void columnsSlicedOnTheHostBeforeTheyMovedEqualPlainJava(Device device) {
        Long[] values = Int64Oracle.randomColumn(12, 3_000, 3);
        try (DeviceArray host = HostVector.int64("value", values).toDeviceArray();
             DeviceArray part = host.slice(5, 2_990);
             DeviceArray moved = Copies.toDevice(part, device)) {
            assertKernelsAgree(device, moved, values, 5, 2_990);
        }
    }

    @ParameterizedTest
    @MethodSource("devices")
    void columnsWithoutNullsAndOnlyNullsEqualPlainJava(Device device) {
        Long[] dense = Int64Oracle.randomColumn(13, 2_049, 0);
        Long[] empty = new Long[77];
        try (DeviceArray denseColumn = column(device, dense);
             DeviceArray emptyColumn = column(device, empty)) {
            assertKernelsAgree(device, denseColumn, dense, 0, dense.length);
            assertKernelsAgree(device, emptyColumn, empty, 0, empty.length);
        }
    }

    @ParameterizedTest
    @MethodSource("devices")
    void sumsWrapLikeJavaLongs(Device device) {
        Long[] values = {Long.MAX_VALUE, 1L, null, Long.MAX_VALUE, Long.MIN_VALUE, -3L};
        try (DeviceArray column = column(device, values)) {
            assertKernelsAgree(device, column, values, 0, values.length);
        }
    }

    @ParameterizedTest
    @MethodSource("devices")
    void aFilteredColumnIsTheNextKernelsInput(Device device) {
        Long[] values = Int64Oracle.randomColumn(14, 50_000, 4);
        try (DeviceArray column = column(device, values);
             DeviceArray part = column.slice(1, 49_998);
             DeviceArray positive = KERNELS.filterGreaterThan(part, 0);
             DeviceArray large = KERNELS.filterGreaterThan(positive, 600_000)) {
            long[] expected = Int64Oracle.greaterThan(values, 1, 49_998, 600_000);
            assertArrayEquals(expected, valuesOf(large));
            assertEquals(LongStream.of(Int64Oracle.greaterThan(values, 1, 49_998, 0)).sum(), KERNELS.sum(positive));
        }
    }

    @ParameterizedTest
    @MethodSource("devices")
    void resultsOnDevicesWithEventsCarryTheirOwnSyncEvent(Device device) {
        try (DeviceArray column = column(device, Int64Oracle.randomColumn(15, 100, 2));
             DeviceArray kept = KERNELS.filterGreaterThan(column, 0)) {
            assertEquals(!device.type().equals(DeviceType.CPU), kept.syncEvent().isPresent());
        }
    }

    @ParameterizedTest
    @MethodSource("devices")
    void refusesWhatIsNotAnOpenInt64Column(Device device) {
        DeviceArray ints = HostVector.int32("counts", 1, 2, 3).toDeviceArray();
        try (DeviceArray moved = Copies.toDevice(ints, device)) {
            IllegalArgumentException notInt64 = assertThrows(IllegalArgumentException.class, () -> KERNELS.sum(moved));
            assertTrue(notInt64.getMessage().contains("int64") && notInt64.getMessage().contains("'counts'"),
                    notInt64.getMessage());
            assertThrows(IllegalArgumentException.class, () -> KERNELS.filterGreaterThan(moved, 0));
        } finally {
            ints.close();
        }
        DeviceArray closed = column(device, new Long[] {1L});
        closed.close();
        assertThrows(IllegalStateException.class, () -> KERNELS.sum(closed));
        assertThrows(NullPointerException.class, () -> KERNELS.filterGreaterThan(null, 0));
    }

    @Test
    void closedKernelsRefuseWork() {
        ColumnKernels kernels = new ColumnKernels();
        try (DeviceArray column = column(TestDevices.openCl(), new Long[] {1L, 2L})) {
            assertEquals(3, kernels.sum(column));
            kernels.close();
            kernels.close();
            assertThrows(IllegalStateException.class, () -> kernels.sum(column));
            assertThrows(IllegalStateException.class, () -> kernels.filterGreaterThan(column, 0));
        }
    }
}
