package dev.quiver.cli;

import dev.quiver.plugin.Backends;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.NativeAdoption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The argument checks the API puts in front of every backend, across real drivers: memory, streams and events
 * of one backend handed to another are refused by name before either driver sees them, and ranges are checked
 * against the allocation whatever the backend. CPU, OpenCL (PoCL) and Vulkan (lavapipe) must be usable here.
 */
class CommonChecksAcrossBackendsTest {
    private static final Devices DEVICES = Devices.system();
    // Backends.of(Device) on purpose: these tests exercise the checked wrapper itself, which the SPI view exposes
    // and the public API (DeviceBuffer, DeviceStream) never lets one reach with another backend's handles.
    private final BackendDevice cpu = Backends.of(DEVICES.cpu());
    private final BackendDevice opencl = Backends.of(DEVICES.get(DeviceType.OPENCL, 0));
    private final BackendDevice vulkan = Backends.of(DEVICES.get(DeviceType.VULKAN, 0));

    @Test
    void buffersOfOneBackendAreRefusedByAnother() {
        MemorySegment clBuffer = opencl.allocate(64, 64);
        MemorySegment vkBuffer = vulkan.allocate(64, 64);
        MemorySegment cpuBuffer = cpu.allocate(64, 64);
        try (Arena arena = Arena.ofConfined()) {
            assertEquals("source 0x" + Long.toHexString(clBuffer.address()) + " is memory of " + opencl + ", not of " + vulkan,
                    message(() -> vulkan.copyToHost(clBuffer, 0, arena.allocate(8), vulkan.defaultStream())));
            assertEquals("destination 0x" + Long.toHexString(vkBuffer.address()) + " is memory of " + vulkan + ", not of " + opencl,
                    message(() -> opencl.copyFromHost(arena.allocate(8), vkBuffer, 0, opencl.defaultStream())));
            assertEquals("destination 0x" + Long.toHexString(cpuBuffer.address()) + " is memory of " + cpu + ", not of " + opencl,
                    message(() -> opencl.copyWithinDevice(clBuffer, 0, cpuBuffer, 0, 8, opencl.defaultStream())));
            assertEquals("0x" + Long.toHexString(clBuffer.address()) + " was not allocated by " + vulkan + " but by " + opencl,
                    message(() -> vulkan.free(clBuffer)));
            opencl.copyFromHost(arena.allocate(64).fill((byte) 5), clBuffer, 0, opencl.defaultStream());
            MemorySegment back = arena.allocate(64);
            opencl.copyToHost(clBuffer, 0, back, opencl.defaultStream());
            opencl.synchronizeStream(opencl.defaultStream());
            assertEquals(5, back.get(JAVA_BYTE, 63), "the refused calls left the buffer usable");
        } finally {
            opencl.free(clBuffer);
            vulkan.free(vkBuffer);
            cpu.free(cpuBuffer);
        }
    }

    @Test
    void streamsAndEventsOfOneBackendAreRefusedByAnother() {
        DeviceEvents vulkanEvents = vulkan.capability(DeviceEvents.class).orElseThrow();
        DeviceEvents openclEvents = opencl.capability(DeviceEvents.class).orElseThrow();
        MemorySegment clQueue = opencl.createStream();
        MemorySegment vkEvent = vulkanEvents.createEvent();
        try {
            assertEquals("stream 0x" + Long.toHexString(clQueue.address()) + " is stream of " + opencl + ", not of " + vulkan,
                    message(() -> vulkan.synchronizeStream(clQueue)));
            assertEquals("event 0x" + Long.toHexString(vkEvent.address()) + " is event of " + vulkan + ", not of " + opencl,
                    message(() -> openclEvents.streamWaitEvent(clQueue, vkEvent)));
            assertEquals("nativeStream 0x" + Long.toHexString(clQueue.address()) + " is stream of " + opencl + ", not of " + vulkan,
                    message(() -> vulkan.capability(NativeAdoption.class).orElseThrow().adoptStream(clQueue)));
            vulkanEvents.recordEvent(vkEvent, vulkan.defaultStream());
            vulkanEvents.waitEvent(vkEvent);
            opencl.synchronizeStream(clQueue);
        } finally {
            vulkanEvents.destroyEvent(vkEvent);
            opencl.destroyStream(clQueue);
        }
    }

    @Test
    void rangesAreCheckedAgainstTheAllocationOnEveryBackend() {
        for (BackendDevice device : new BackendDevice[] {cpu, opencl, vulkan}) {
            MemorySegment buffer = device.allocate(100, 64);
            try (Arena arena = Arena.ofConfined()) {
                assertEquals("source range [90, 110) is outside the 100-byte allocation 0x" + Long.toHexString(buffer.address())
                        + " of " + device, message(() -> device.copyToHost(buffer, 90, arena.allocate(20), device.defaultStream())));
                assertEquals("alignment must be a power of two, not 3", message(() -> device.allocate(8, 3)));
            } finally {
                device.free(buffer);
            }
        }
    }

    private static String message(Executable call) {
        return assertThrows(IllegalArgumentException.class, call).getMessage();
    }
}
