package dev.quiver.share;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.Devices;
import dev.quiver.host.HostVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An owner may rewrite its device memory after the receiver checked a batch of device handles. Here the owner (this
 * JVM, on a backend's test double) rewrites the string offsets and list offsets of a batch its receiver (a
 * {@link HoldingChild}) holds, with bytes {@code 0x7F} (offsets of two billion); the receiver then copies the
 * array to the host and reads exactly the values it received: its array's offsets are its own device copies, made
 * from the bytes it checked. Before those copies, the copy to the host was sized by the rewritten last offset.
 * The test doubles prove the receiver's code path, nothing about GPU hardware.
 */
class DeviceRewriteTest {

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void offsetsTheOwnerRewritesOnItsDeviceAfterTheCheckAreNotWhatTheReceiverReads(TestDoubleDevices backend) throws Exception {
        Path library = backend.library();
        Devices devices = backend.devices(library);
        Device device = backend.device(library);
        Path gate = Files.createTempDirectory("quiver-gate").resolve("open");
        try (ShareServer server = ShareServer.bindPrivate().serve(device);
             ChildJvm child = ChildJvm.startMain(HoldingChild.class, backend.name(), library.toString(), server.path().toString(),
                     gate.toString());
             ShareSession session = server.accept();
             DeviceStream stream = device.createStream();
             DeviceArray host = Batches.table(3, 200).toDeviceArray(devices);
             DeviceArray onDevice = Copies.toDevice(host, device, stream)) {
            onDevice.syncEvent().ifPresent(dev.quiver.SyncEvent::waitOnHost);
            session.send(onDevice);
            child.lineStartingWith("HELD ");
            long rewritten = overwrite(onDevice, "name", stream) + overwrite(onDevice, "tags", stream);
            stream.synchronize();
            assertTrue(rewritten > 0, "rewrote " + rewritten);
            Files.createFile(gate);
            assertEquals("READ " + Batches.digest(host), child.line(),
                    "the receiver read what it received, not the " + rewritten + " bytes rewritten since");
            session.end();
            assertEquals("END", child.line());
            assertEquals(0, child.waitFor(), child.errors());
            assertTrue(session.awaitReleased(Duration.ofSeconds(30)));
        } finally {
            Files.deleteIfExists(gate);
            Files.deleteIfExists(gate.getParent());
        }
    }

    /** Overwrites the offsets buffer (buffer 1) of one column of {@code table} in the owner's device memory. */
    private static long overwrite(DeviceArray table, String column, DeviceStream stream) {
        try (DeviceArray child = table.child(table.field().childIndex(column)); Arena arena = Arena.ofConfined()) {
            DeviceBuffer offsets = child.buffer(1);
            MemorySegment bytes = arena.allocate(offsets.byteSize()).fill((byte) 0x7F);
            offsets.copyFromHost(bytes, 0, stream);
            stream.synchronize();
            return offsets.byteSize();
        }
    }
}
