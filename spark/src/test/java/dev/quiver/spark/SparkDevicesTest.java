package dev.quiver.spark;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Addresses become devices of any backend, {@code TYPE:ID} or ids of a given type; wrong ones are refused naming the
 * resource and the address; a task without the resource (Spark's local mode assigns none) is told so. Tasks that get
 * devices through a discovery script run in {@link LocalClusterTest}.
 */
class SparkDevicesTest {
    private final Devices devices = Devices.system();

    @Test
    void addressesNameDevicesOfAnyBackend() {
        Device opencl = devices.get(DeviceType.OPENCL, 0);
        assertEquals(List.of(opencl), SparkDevices.of("gpu", List.of("opencl:0"), null, devices));
        assertEquals(List.of(opencl, opencl), SparkDevices.of("gpu", List.of("0", "OpenCL:0"), DeviceType.OPENCL, devices));
        assertEquals(List.of(devices.cpu()), SparkDevices.of("host", List.of("cpu:-1"), null, devices));
        Device vulkan = devices.get(DeviceType.VULKAN, 0);
        assertEquals(List.of(vulkan, opencl), SparkDevices.of("gpu", List.of("vulkan:0", "opencl:0"), null, devices));
    }

    @Test
    void anAddressThatNamesNoDeviceIsRefusedNamingTheResourceAndTheAddress() {
        assertMessage("resource gpu, address opencl:7: no device opencl:7 on this machine", List.of("opencl:0", "opencl:7"), null);
        assertMessage("resource gpu, address tpu:0: no device type tpu", List.of("tpu:0"), null);
        assertMessage("resource gpu, address 0: a plain id needs its device type", List.of("0"), null);
        assertMessage("resource gpu, address first: first is not a device id", List.of("first"), DeviceType.OPENCL);
    }

    private void assertMessage(String expected, List<String> addresses, DeviceType type) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SparkDevices.of("gpu", addresses, type, devices));
        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    }

    @Test
    void outsideATaskThereIsNoAssignment() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SparkDevices.assigned("gpu"));
        assertTrue(e.getMessage().startsWith("no Spark task runs on this thread"), e.getMessage());
    }

    @Test
    void aTaskWithoutTheResourceIsToldWhichItHasAndWhatToConfigure() {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(LocalSpark.session().sparkContext());
        List<String> missing = sc.parallelize(List.of(1, 2), 2).map(i -> {
            try {
                return "assigned " + SparkDevices.assigned("gpu");
            } catch (IllegalStateException e) {
                return e.getMessage();
            }
        }).collect();
        for (String message : missing) {
            assertTrue(message.matches("task \\d+ \\(stage \\d+, partition \\d\\) has no resource gpu; it has \\[\\] \\(give the job"
                    + " spark.task.resource.gpu.amount and spark.executor.resource.gpu.amount with a discovery script\\)"), message);
        }
    }
}
