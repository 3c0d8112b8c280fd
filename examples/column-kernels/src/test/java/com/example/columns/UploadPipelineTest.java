package com.example.columns;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Diagnostics;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The upload pipeline sums 12 host batches on the CPU, on OpenCL (uploads overlapping kernels) and on Vulkan
 * (the host fallback) as plain Java does; every host batch and every upload is released, also when a batch
 * in the middle is refused.
 */
class UploadPipelineTest {
    private static final ColumnKernels KERNELS = new ColumnKernels();

    static Stream<Device> devices() {
        return Stream.of(TestDevices.cpu(), TestDevices.openCl(), TestDevices.vulkan());
    }

    @AfterAll
    static void closeKernels() {
        KERNELS.close();
    }

    @ParameterizedTest
    @MethodSource("devices")
    void sumsEveryBatchAsPlainJavaDoes(Device device) throws InterruptedException {
        long exports = Diagnostics.liveExports();
        List<Long[]> columns = new ArrayList<>();
        List<DeviceArray> batches = new ArrayList<>();
        for (int b = 0; b < 12; b++) {
            Long[] values = Int64Oracle.randomColumn(b, 50_000 + b * 1_000, 9);
            columns.add(values);
            batches.add(HostVector.int64("batch", values).toDeviceArray());
        }
        List<Long> sums = UploadPipeline.sums(KERNELS, batches.iterator(), device);
        for (int b = 0; b < columns.size(); b++) {
            assertEquals(Int64Oracle.sum(columns.get(b), 0, columns.get(b).length), sums.get(b), device + ": batch " + b);
        }
        assertTrue(batches.stream().allMatch(DeviceArray::isClosed), "every host batch was taken over");
        assertTrue(Diagnostics.awaitStreamOrderReleases(Duration.ofSeconds(30)));
        assertEquals(exports, Diagnostics.liveExports(), device + ": every batch and every upload released");
    }

    @ParameterizedTest
    @MethodSource("devices")
    void aRefusedBatchReleasesTheRest(Device device) throws InterruptedException {
        long exports = Diagnostics.liveExports();
        List<DeviceArray> batches = new ArrayList<>(List.of(
                HostVector.int64("batch", 1L, 2L).toDeviceArray(),
                HostVector.int64("batch", 3L).toDeviceArray(),
                HostVector.int32("batch", 4, 5).toDeviceArray(),
                HostVector.int64("batch", 6L).toDeviceArray()));
        assertThrows(IllegalArgumentException.class, () -> UploadPipeline.sums(KERNELS, batches.iterator(), device));
        assertTrue(batches.stream().allMatch(DeviceArray::isClosed), "every host batch closed");
        assertTrue(Diagnostics.awaitStreamOrderReleases(Duration.ofSeconds(30)));
        assertEquals(exports, Diagnostics.liveExports(), device + ": nothing left unreleased");
    }
}
