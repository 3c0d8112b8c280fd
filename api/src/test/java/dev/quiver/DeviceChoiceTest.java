package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.HardwareKind;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.testkit.backend.TestDoubleProvider;
import dev.quiver.testkit.SystemProperties;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Choosing a device by what it is and what it can do: within a type, a discrete GPU before an integrated one
 * before a CPU implementation, then more memory, then more compute units; {@link Devices#best} with a condition;
 * feature queries; an array's device. Over test doubles (named so) that report what they are told to.
 */
class DeviceChoiceTest {
    private final TestDoubleProvider openCl = new TestDoubleProvider("ocl", DeviceTypeCodes.OPENCL, 0);
    private final TestDoubleProvider vulkan = new TestDoubleProvider("vk", DeviceTypeCodes.VULKAN, 0);

    private Devices devices() {
        return Backends.devices(List.of(openCl, vulkan, HostProvider.host()), BackendSelection.all());
    }

    @Test
    void withinATypeAGpuComesBeforeACpuImplementationWhateverTheirIds() {
        // as on a machine with PoCL (OPENCL:0, a CPU) beside a GPU's OpenCL (OPENCL:1)
        openCl.kinds.put(0L, HardwareKind.CPU);
        openCl.kinds.put(1L, HardwareKind.DISCRETE_GPU);
        openCl.memories.put(0L, 6L << 30);
        openCl.memories.put(1L, 140L << 30);
        openCl.computeUnits.put(1L, 132);
        Devices devices = devices();
        List<Device> ranked = DeviceRanking.parse("opencl").rank(devices.all());
        assertEquals(List.of("OPENCL:1", "OPENCL:0"), ranked.stream().filter(d -> d.type().equals(DeviceType.OPENCL))
                .map(d -> d.type() + ":" + d.id()).toList());
        assertEquals("OPENCL:1 ocl test double 1: opencl is 1st of 10 types; a discrete GPU; 140.0 GiB; 132 compute units",
                DeviceRanking.parse("opencl").explain(devices.get(DeviceType.OPENCL, 1)));
        assertEquals("OPENCL:0 ocl test double 0: opencl is 1st of 10 types; a CPU; 6.0 GiB; compute units unknown",
                DeviceRanking.parse("opencl").explain(devices.get(DeviceType.OPENCL, 0)));
    }

    @Test
    void byDefaultCpuImplementationsComeAfterEveryOtherDeviceOpenClsFirst() {
        // as on a machine with PoCL (OPENCL:0) and lavapipe (VULKAN:0, VULKAN:1) beside a GPU's OpenCL (OPENCL:1)
        openCl.kinds.put(0L, HardwareKind.CPU);
        openCl.kinds.put(1L, HardwareKind.DISCRETE_GPU);
        vulkan.kinds.put(0L, HardwareKind.CPU);
        vulkan.kinds.put(1L, HardwareKind.CPU);
        Devices devices = devices();
        assertEquals(List.of("OPENCL:1", "OPENCL:0", "VULKAN:0", "VULKAN:1", "CPU:-1"),
                DeviceRanking.defaults().rank(devices.all()).stream().map(DeviceChoiceTest::name).toList(),
                "the GPU first although Vulkan's type ranks above OpenCL's; PoCL before lavapipe; the host last");
        assertTrue(DeviceRanking.defaults().explain(devices.get(DeviceType.VULKAN, 0)).contains(
                "vulkan is 5th of 10 types; a CPU implementation of vulkan, so after every device that is not one (vulkan is 3rd among them)"),
                DeviceRanking.defaults().explain(devices.get(DeviceType.VULKAN, 0)));
        assertEquals(List.of("VULKAN:0", "VULKAN:1", "OPENCL:1", "OPENCL:0", "CPU:-1"),
                DeviceRanking.parse("vulkan").rank(devices.all()).stream().map(DeviceChoiceTest::name).toList(),
                "an order given is followed as it is");
    }

    @Test
    void kindThenMemoryThenComputeUnitsThenId() {
        openCl.kinds.put(0L, HardwareKind.INTEGRATED_GPU);
        openCl.kinds.put(1L, HardwareKind.INTEGRATED_GPU);
        openCl.memories.put(0L, 8L << 30);
        openCl.memories.put(1L, 16L << 30);
        assertEquals(List.of(1L, 0L), openClIds(DeviceRanking.defaults().rank(devices().all())), "more memory first");
        openCl.memories.put(1L, 8L << 30);
        openCl.computeUnits.put(0L, 24);
        openCl.computeUnits.put(1L, 12);
        assertEquals(List.of(0L, 1L), openClIds(DeviceRanking.defaults().rank(devices().all())), "then more compute units");
        openCl.computeUnits.put(1L, 24);
        assertEquals(List.of(0L, 1L), openClIds(DeviceRanking.defaults().rank(devices().all())), "then the id");
    }

    @Test
    void bestFindsTheFirstRankedDeviceThatSatisfiesTheCondition() {
        openCl.kinds.put(1L, HardwareKind.DISCRETE_GPU);
        Devices devices = devices();
        SystemProperties.with(DeviceRanking.PROPERTY, "", () -> {
            assertEquals("VULKAN:0", name(devices.preferred()), "Vulkan ranks before OpenCL by default");
            assertEquals("OPENCL:1", name(devices.best(d -> d.type().equals(DeviceType.OPENCL)).orElseThrow()),
                    "a library with OpenCL kernels only gets the best OpenCL device");
            assertEquals("CPU:-1", name(devices.best(d -> d.supports(DeviceFeature.HOST_ACCESS)).orElseThrow()));
            assertEquals(Optional.empty(), devices.best(d -> d.type().equals(DeviceType.CUDA)));
        });
        assertThrows(NullPointerException.class, () -> devices.best(null));
    }

    @Test
    void featuresSayWhatADeviceCanDo() {
        Devices devices = devices();
        Device cpu = devices.cpu();
        assertEquals(Set.of(DeviceFeature.HOST_ACCESS), cpu.features());
        assertFalse(cpu.supports(DeviceFeature.EVENTS));
        assertEquals(DeviceKind.CPU, cpu.kind());
        assertEquals(Runtime.getRuntime().availableProcessors(), cpu.computeUnits());
        assertTrue(cpu.vendorLibrary().isEmpty());
        Device device = devices.get(DeviceType.OPENCL, 0);
        assertTrue(device.supports(DeviceFeature.EVENTS), "the test double has events");
        assertTrue(device.supports(DeviceFeature.STREAM_ORDERED_RELEASE));
        assertFalse(device.supports(DeviceFeature.HOST_ACCESS));
        assertFalse(device.supports(DeviceFeature.VENDOR_LIBRARY));
        assertEquals(DeviceKind.OTHER, device.kind(), "the double does not say");
    }

    @Test
    void anArrayKnowsItsDevice() {
        Devices devices = devices();
        Device device = devices.get(DeviceType.OPENCL, 1);
        try (DeviceArray host = dev.quiver.host.HostVector.int64("x", 1L, 2L, 3L).toDeviceArray(devices);
             DeviceArray moved = Copies.toDevice(host, device)) {
            assertEquals(devices.cpu(), host.device());
            assertEquals(device, moved.device());
        }
        Devices withoutOpenCl = Devices.cpuOnly();
        try (DeviceArray host = dev.quiver.host.HostVector.int64("x", 1L).toDeviceArray(withoutOpenCl)) {
            assertEquals(withoutOpenCl.cpu(), host.device());
        }
    }

    private static List<Long> openClIds(List<Device> ranked) {
        return ranked.stream().filter(d -> d.type().equals(DeviceType.OPENCL)).map(Device::id).toList();
    }

    private static String name(Device device) {
        return device.type() + ":" + device.id();
    }
}
