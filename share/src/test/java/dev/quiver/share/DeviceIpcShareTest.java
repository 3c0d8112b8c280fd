package dev.quiver.share;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.Devices;
import dev.quiver.host.HostVector;
import dev.quiver.plugin.Backends;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.Handshake;
import dev.quiver.share.internal.protocol.MessageType;
import dev.quiver.spi.IpcMemoryHandle;
import dev.quiver.type.Field;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Device arrays handed to another process as the driver's IPC handles (docs/SHARING.md, "Device IPC handles"),
 * CUDA, HIP and Level Zero IPC: the owner in this JVM and the receiver in a {@link ChildJvm} ({@link DeviceShareChild}),
 * both on the same backend over the same test double of its driver ({@link TestDoubleDevices}), whose device
 * memory the child maps from the handle. Proves the sharing code's paths, not GPU hardware.
 */
class DeviceIpcShareTest {

    private static HostVector table(int seed, int rows) {
        Long[] ids = new Long[rows];
        String[] names = new String[rows];
        for (int i = 0; i < rows; i++) {
            ids[i] = i % 6 == 5 ? null : (long) seed * 1_000_000_007L + i;
            names[i] = i % 7 == 3 ? null : "row-" + seed + "-" + i + (i % 5 == 0 ? "-ü" : "");
        }
        return HostVector.struct("batch", HostVector.int64("id", ids), HostVector.utf8("name", names));
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void int64AndUtf8ColumnsOnTheDeviceTravelAsIpcHandlesAndTheirReleaseReachesTheOwner(TestDoubleDevices backend) throws Exception {
        Path library = backend.library();
        Devices devices = backend.devices(library);
        Device device = backend.device(library);
        try (ShareServer server = ShareServer.bindPrivate().serve(device);
             ChildJvm child = ChildJvm.startMain(DeviceShareChild.class, backend.name(), library.toString(), server.path().toString());
             ShareSession session = server.accept()) {
            ZeroCopyHandoff.sendThree(session, child, devices, device, seed -> table(seed, 200 + seed));
            assertEquals(0, child.waitFor(), child.errors());
            assertTrue(session.awaitReleased(Duration.ofSeconds(30)), "every RELEASED reached the owner");
            assertEquals(0, session.outstanding());
        }
        assertEquals(0, ShareStatistics.outstandingBatches());
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void aDeviceArrayForAReceiverOfTheCpuIsCopiedToHostMemoryAndTheReceiverIsToldSo(TestDoubleDevices backend) throws Exception {
        Devices devices = backend.devices(backend.library());
        Device device = backend.device(backend.library());
        try (ShareServer server = ShareServer.bindPrivate().serve(device);
             ChildJvm child = ChildJvm.start("receive", server.path().toString());
             ShareSession session = server.accept();
             DeviceArray host = table(7, 100).toDeviceArray(devices);
             DeviceArray onDevice = host.copyTo(device)) {
            TwoProcessShareTest.sendOneCopied(session, child, onDevice, Batches.digest(host));
        }
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void aHandleWhoseBytesNoDriverMadeIsRefusedNamingTheDriverCall(TestDoubleDevices backend) throws Exception {
        byte[] forged = new byte[64];
        Arrays.fill(forged, (byte) 0x5a);
        String refusal = refused(backend, allocation -> new BatchMessage.Handle(backend.kind(), allocation.allocationSize(), 1, true, forged),
                8, ErrorCode.PROTOCOL);
        assertTrue(refusal.contains("handles[0]: the device refused the " + backend.kind() + " handle")
                && refusal.contains(backend.openCall()), refusal);
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void aBufferPastTheAllocationIsRefusedNamingIt(TestDoubleDevices backend) throws Exception {
        long[] size = new long[1];
        String refusal = refused(backend, allocation -> {
            size[0] = allocation.allocationSize();
            return new BatchMessage.Handle(backend.kind(), allocation.allocationSize(), 1, true, allocation.handle());
        }, -1, ErrorCode.LIMIT);
        assertTrue(refusal.contains("nodes[0].buffers[1] at offset 0 for " + (size[0] + 8) + " bytes is past the " + size[0]
                + " bytes of handles[0]"), refusal);
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void aHandleOfTheWrongLengthIsRefused(TestDoubleDevices backend) throws Exception {
        String refusal = refused(backend, allocation -> new BatchMessage.Handle(backend.kind(), allocation.allocationSize(), 1, true,
                Arrays.copyOf(allocation.handle(), 60)), 8, ErrorCode.PROTOCOL);
        assertTrue(refusal.contains("handles[0] has a payload of 60 bytes"), refusal);
    }

    /**
     * Sends a child on {@code backend} one BATCH of an int64 array of 4 values whose data buffer lies in a real allocation of this
     * process, with the handle {@code forge} makes of its export and a data length of {@code dataLength} (-1: 8
     * bytes past the allocation), and returns the reason of the child's refusal, which must carry {@code code}.
     */
    private static String refused(TestDoubleDevices backend, Function<IpcMemoryHandle, BatchMessage.Handle> forge, long dataLength,
                                  ErrorCode code) throws Exception {
        Path library = backend.library();
        Devices devices = backend.devices(library);
        Device device = backend.device(library);
        Field field;
        try (DeviceArray sample = table(0, 1).toDeviceArray(devices)) {
            field = sample.field().children().getFirst();
        }
        try (DeviceBuffer allocation = device.allocate(64)) {
            IpcMemoryHandle exported = Backends.of(device).exportMemory(allocation.pointer(), 0);
            long length = dataLength < 0 ? exported.allocationSize() + 8 : dataLength;
            BatchMessage batch = new BatchMessage(1, false, List.of(forge.apply(exported)), 0, new byte[0],
                    List.of(new BatchMessage.Node(1, 0, 0, List.of(new BatchMessage.Buffer(BatchMessage.NO_HANDLE, 0, 0),
                            new BatchMessage.Buffer(0, exported.offset(), length)), 0, false)));
            try (HostileOwner owner = new HostileOwner(new Handshake.Welcome(2, DeviceNames.of(device), 1), field,
                    connection -> connection.send(MessageType.BATCH, batch.encode()));
                 ChildJvm child = ChildJvm.startMain(DeviceShareChild.class, backend.name(), library.toString(), owner.socket().toString())) {
                String line = child.lineStartingWith("ERROR ");
                assertEquals(3, child.waitFor(), child.errors());
                ErrorMessage sent = owner.errorSent();
                assertEquals(code, sent.code(), sent.reason());
                assertTrue(line.contains(sent.reason()), line);
                return sent.reason();
            }
        }
    }
}
