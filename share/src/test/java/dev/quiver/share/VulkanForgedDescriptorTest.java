package dev.quiver.share;

import dev.quiver.Copies;
import dev.quiver.spi.IpcMemory;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.device.vulkan.NoValidationMessages;
import dev.quiver.plugin.Backends;
import dev.quiver.share.internal.posix.Memfd;
import dev.quiver.share.internal.posix.UnixSocket;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.Connection;
import dev.quiver.share.internal.protocol.DeviceName;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.share.internal.protocol.Handshake;
import dev.quiver.share.internal.protocol.Message;
import dev.quiver.share.internal.protocol.MessageType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a Vulkan receiver on lavapipe makes of an owner that lies in the one place the protocol's checks of a
 * {@code VULKAN_FD} descriptor (its seals, its size) do not reach: the header at the start of lavapipe's memory
 * files, by which the driver maps them (docs/SHARING.md, "Device IPC handles"); and how an owner of a Vulkan device
 * names it in the handshake: by its {@code deviceUUID}. Under the Khronos validation layer.
 */
@ExtendWith(NoValidationMessages.class)
class VulkanForgedDescriptorTest {
    private static final long FILE = 8192;

    @Test
    void aSealedFileWhoseCopiedHeaderSaysMoreThanItHoldsIsRefusedWithProtocolAndTheReceiverLivesToReceiveAgain() throws Exception {
        Device device = Lavapipe.device();
        Field field;
        try (DeviceArray sample = Batches.table(0, 1).toDeviceArray(Lavapipe.devices())) {
            field = sample.field().children().getFirst();
        }
        int forged = Memfd.create("forged-lavapipe-memory", FILE);
        try {
            MemorySegment file = Memfd.mapShared(forged, FILE);
            MemorySegment.copy(MemorySegment.ofArray(lavapipeHeader(device)), 0, file, 0, 32);
            file.set(JAVA_LONG_UNALIGNED, 0, 1L << 30);   // size: 1 GiB
            file.set(JAVA_LONG_UNALIGNED, 8, 1L << 20);   // offset: 1 MiB
            Memfd.unmap(file);
            BatchMessage batch = new BatchMessage(1, false, List.of(new BatchMessage.Handle(HandleKind.VULKAN_FD, 4096, 1, true, new byte[0])),
                    0, new byte[0], List.of(new BatchMessage.Node(1, 0, 0, List.of(new BatchMessage.Buffer(BatchMessage.NO_HANDLE, 0, 0),
                            new BatchMessage.Buffer(0, 0, 8)), 0, false)));
            try (HostileOwner liar = new HostileOwner(new Handshake.Welcome(2, DeviceNames.of(device), 1), field,
                    connection -> connection.send(MessageType.BATCH, batch.encode(), new int[] {forged}));
                 ShareServer honest = ShareServer.bindPrivate().serve(device);
                 ChildJvm child = ChildJvm.startMain(DeviceShareChild.class, DeviceShareChild.LAVAPIPE, "-", liar.socket().toString(),
                         honest.path().toString())) {
                String line = child.lineStartingWith("ERROR ");
                ErrorMessage sent = liar.errorSent();
                assertEquals(ErrorCode.PROTOCOL, sent.code(), sent.reason());
                assertTrue(sent.reason().contains("BATCH 1: handles[0]: the device refused the VULKAN_FD handle: the descriptor's memory "
                        + "file header says 1073741824 bytes with the memory at offset 1048576, but the file has 8192 bytes"), sent.reason());
                assertTrue(line.contains(sent.reason()), line);
                try (ShareSession session = honest.accept(); DeviceArray host = Batches.table(5, 40).toDeviceArray(Lavapipe.devices());
                     DeviceArray onDevice = Copies.toDevice(host, device)) {
                    session.send(onDevice);
                    session.end();
                    String[] received = child.lineStartingWith("BATCH ").split(" ");
                    assertEquals("zero-copy", received[1], "the same receiver, after its refusal");
                    assertEquals(Batches.digest(host), received[3]);
                    assertEquals("END", child.line());
                    assertEquals("0 []", child.lineStartingWith("VALIDATION "), "the validation layer in the receiver's process");
                    assertEquals(3, child.waitFor(), child.errors());
                    assertTrue(session.awaitReleased(Duration.ofSeconds(30)));
                }
            }
        } finally {
            Memfd.close(forged);
        }
    }

    @Test
    void anOwnerServesAVulkanDeviceToAReceiverNamingItsDeviceUuidOrNoUuidAndNamesTheUuidWhenItRefuses() throws Exception {
        Device device = Lavapipe.device();
        String property = device.properties().get("uuid");
        assertTrue(property != null && property.matches("\\p{XDigit}{8}(-\\p{XDigit}{4}){3}-\\p{XDigit}{12}"), "the deviceUUID: " + property);
        byte[] uuid = HexFormat.of().parseHex(property.replace("-", ""));
        assertEquals(new DeviceName(device.type().code(), device.id(), uuid), DeviceNames.of(device), "what a Quiver receiver sends");
        try (ShareServer server = ShareServer.bindPrivate().serve(device)) {
            for (DeviceName asked : List.of(new DeviceName(device.type().code(), device.id(), uuid),
                    new DeviceName(device.type().code(), device.id() + 7, uuid), new DeviceName(device.type().code(), device.id(), DeviceName.NO_UUID))) {
                Message answer = hello(server, asked);
                assertEquals(MessageType.WELCOME, answer.type(), asked.toString());
                assertEquals(asked, Handshake.Welcome.decode(answer.body()).device(), "WELCOME names the device the receiver asked for");
            }
            byte[] other = uuid.clone();
            other[0] ^= 1;
            Message refused = hello(server, new DeviceName(device.type().code(), device.id(), other));
            assertEquals(MessageType.ERROR, refused.type());
            ErrorMessage error = ErrorMessage.decode(refused.body());
            assertEquals(ErrorCode.DEVICE, error.code());
            assertTrue(error.reason().contains("uuid " + HexFormat.of().formatHex(other)) && error.reason().contains("uuid " + HexFormat.of().formatHex(uuid)),
                    "names both UUIDs: " + error.reason());
        }
    }

    /** Sends {@code asked} in a HELLO to {@code server}, which accepts on another thread; returns its answer. */
    private static Message hello(ShareServer server, DeviceName asked) throws Exception {
        CompletableFuture<Void> accepted = CompletableFuture.runAsync(() -> {
            try (ShareSession ignored = server.accept()) {
                // served: the session ends with this test's connection
            } catch (ShareException refused) {
                // the refusal this test reads
            }
        });
        try (Connection connection = new Connection(UnixSocket.connect(server.path()))) {
            connection.send(MessageType.HELLO, new Handshake.Hello(2, asked, HandleKind.MEMFD.bit() | HandleKind.VULKAN_FD.bit(), 8, 1 << 20).encode());
            return connection.receive();
        } finally {
            accepted.get();
        }
    }

    /** {@return the first 32 bytes of a memory file lavapipe exported: its header, which the driver takes for its own} */
    private static byte[] lavapipeHeader(Device device) {
        try (DeviceBuffer allocation = device.allocate(64)) {
            int fd = Backends.of(device).capability(IpcMemory.class).orElseThrow().exportMemory(allocation.pointer(), 0).fileDescriptor();
            try {
                MemorySegment file = Memfd.mapShared(fd, Memfd.size(fd));
                byte[] header = file.asSlice(0, 32).toArray(JAVA_BYTE);
                Memfd.unmap(file);
                return header;
            } finally {
                Memfd.close(fd);
            }
        }
    }
}
