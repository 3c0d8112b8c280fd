package dev.quiver.device.opencl;

import dev.quiver.Interchange;
import dev.quiver.plugin.Backends;
import dev.quiver.Copies;
import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceStream;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.spi.ProbeResult;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Adoption of an application's own context and queue, made in C ({@code opencl_app.c}) the way an
 * application using OpenCL, LWJGL or JOCL would have made them; reference counts are read from C.
 */
class OpenClAdoptionTest {

    @Test
    void adoptionRetainsBothAndCloseReleasesThemOnce() {
        COpenClApplication.Objects app = COpenClApplication.create(false);
        try {
            COpenClApplication.References before = COpenClApplication.references(app);
            OpenClDevice device = OpenClDevices.adopt(app.context(), app.queue());
            assertEquals(new COpenClApplication.References(before.context() + 1, before.queue() + 1),
                    COpenClApplication.references(app), "adopt retains the context and the queue once each");
            assertTrue(device.isAdopted());
            assertEquals(app.context().address(), device.context().address());
            assertEquals(app.queue().address(), device.defaultStream().address(), "the application's queue is the default stream");
            assertEquals("adopted", device.properties().get("context"));
            OpenClDevice probed = (OpenClDevice) assertInstanceOf(ProbeResult.Available.class, new OpenClProvider().probe()).devices().getFirst();
            assertEquals(probed.clDevice().address(), device.clDevice().address(), "the application used the first device");
            assertEquals(probed.deviceId(), device.deviceId(), "an adopted device has the id the provider gives the same device");

            device.close();
            assertEquals(before, COpenClApplication.references(app), "close released both references");
            device.close();
            assertEquals(before, COpenClApplication.references(app), "a second close releases nothing");
            assertThrows(IllegalStateException.class, device::createStream, "use after close fails clearly");
            assertThrows(IllegalStateException.class, () -> device.allocate(16, 8));
        } finally {
            COpenClApplication.release(app);
        }
    }

    @Test
    void copiesLandInTheApplicationsContextAndCConsumesThem() {
        COpenClApplication.Objects app = COpenClApplication.create(false);
        Integer[] values = new Integer[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 9 == 0 ? null : i * 3 - 700;
        }
        HostVector ints = HostVector.int32("v", values);
        try (OpenClDevice adopted = OpenClDevices.adopt(app.context(), app.queue()); Arena arena = Arena.ofConfined()) {
            Devices devices = Backends.devices(List.of(OpenClDevices.provider(List.of(adopted))), BackendSelection.all());
            Device target = devices.get(DeviceType.OPENCL, adopted.deviceId());
            try (DeviceArray host = ints.toDeviceArray(devices); DeviceArray onDevice = Copies.toDevice(host, target)) {
                MemorySegment struct = Interchange.struct(onDevice);
                MemorySegment syncEvent = struct.get(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT);
                assertEquals(ClConstants.CL_COMPLETE, COpenClApplication.waitSyncEvent(syncEvent),
                        "C waits on sync_event as a cl_event* and sees it complete");
                MemorySegment buffers = struct.get(ADDRESS, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.BUFFERS)
                        .reinterpret(2 * ADDRESS.byteSize());
                MemorySegment out = arena.allocate(JAVA_INT, 100);
                COpenClApplication.read(app.queue(), buffers.getAtIndex(ADDRESS, 1), 10 * JAVA_INT.byteSize(), out);
                for (int i = 0; i < 100; i++) {
                    if (values[10 + i] != null) {
                        assertEquals(values[10 + i], out.getAtIndex(JAVA_INT, i), "value " + (10 + i) + " read by C from the cl_mem");
                    }
                }
                try (DeviceArray back = Copies.toHost(onDevice)) {
                    assertEquals(ints.values(), ArrayReader.of(back).values());
                }
            }
            try (DeviceStream stream = target.createStream()) {
                MemorySegment buffer = adopted.allocate(256, 64);
                try {
                    MemorySegment source = arena.allocate(256).fill((byte) 0x5A);
                    adopted.copyFromHost(source, buffer, 0, stream.handle());
                    stream.synchronize();
                    MemorySegment read = arena.allocate(256);
                    COpenClApplication.read(app.queue(), buffer, 0, read);
                    assertArrayEquals(source.toArray(JAVA_BYTE), read.toArray(JAVA_BYTE),
                            "a stream of the adopted device writes memory the application's queue reads");
                } finally {
                    adopted.free(buffer);
                }
            }
        } finally {
            COpenClApplication.release(app);
        }
    }

    @Test
    void refusesWhatCannotBeAdoptedAndRetainsNothing() {
        COpenClApplication.Objects first = COpenClApplication.create(false);
        COpenClApplication.Objects second = COpenClApplication.create(false);
        COpenClApplication.Objects outOfOrder = COpenClApplication.create(true);
        try {
            COpenClApplication.References before = COpenClApplication.references(first);
            IllegalArgumentException mixed = assertThrows(IllegalArgumentException.class,
                    () -> OpenClDevices.adopt(first.context(), second.queue()));
            assertTrue(mixed.getMessage().contains("belongs to context"), mixed.getMessage());
            IllegalArgumentException unordered = assertThrows(IllegalArgumentException.class,
                    () -> OpenClDevices.adopt(outOfOrder.context(), outOfOrder.queue()));
            assertTrue(unordered.getMessage().contains("out-of-order"), unordered.getMessage());
            assertThrows(IllegalArgumentException.class, () -> OpenClDevices.adopt(MemorySegment.NULL, first.queue()));
            assertEquals(before, COpenClApplication.references(first), "a refused adoption retains nothing");
        } finally {
            COpenClApplication.release(first);
            COpenClApplication.release(second);
            COpenClApplication.release(outOfOrder);
        }
    }
}
