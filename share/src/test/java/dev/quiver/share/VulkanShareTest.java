package dev.quiver.share;

import dev.quiver.spi.IpcMemory;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.plugin.Backends;
import dev.quiver.share.internal.posix.Memfd;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.share.internal.protocol.Handshake;
import dev.quiver.share.internal.protocol.MessageType;
import dev.quiver.spi.IpcMemoryHandle;
import dev.quiver.type.Field;
import dev.quiver.device.vulkan.NoValidationMessages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Vulkan device arrays handed to another process as {@code VK_KHR_external_memory_fd} descriptors
 * (docs/SHARING.md, "Device IPC handles", {@code VULKAN_FD}), for real on Mesa's lavapipe under the Khronos
 * validation layer: the owner in this JVM, the receiver in a {@link ChildJvm} ({@link DeviceShareChild}) that
 * opens each descriptor on its own lavapipe device. Neither process may get a validation message.
 */
@ExtendWith(NoValidationMessages.class)
class VulkanShareTest {
    @Test
    void columnsOnLavapipeTravelAsDescriptorsWithNoCopyAndTheirReleaseReachesTheOwner() throws Exception {
        Device device = Lavapipe.device();
        assertEquals("VULKAN_FD", device.interProcessMemory().mechanism(), "what `quiver devices` prints as the inter-process line");
        try (ShareServer server = ShareServer.bindPrivate().serve(device);
             ChildJvm child = ChildJvm.startMain(DeviceShareChild.class, DeviceShareChild.LAVAPIPE, "-", server.path().toString());
             ShareSession session = server.accept()) {
            ZeroCopyHandoff.sendThree(session, child, Lavapipe.devices(), device, seed -> Batches.table(seed, 300 + seed));
            assertEquals("0 []", child.lineStartingWith("VALIDATION "), "the validation layer in the receiver's process");
            assertEquals(0, child.waitFor(), child.errors());
            assertTrue(session.awaitReleased(Duration.ofSeconds(30)), "every RELEASED reached the owner");
            assertEquals(0, session.outstanding());
            assertEquals(1, mostDescriptorsOfOneMemoryFile(), "each exported descriptor was closed once it was sent: lavapipe's "
                    + "own is the only one left of each memory");
        }
        assertEquals(0, ShareStatistics.outstandingBatches());
    }

    @Test
    void aHandleThatOverstatesTheFileBehindItsDescriptorIsRefusedNamingBothSizes() throws Exception {
        long[] file = new long[1];
        String refusal = refused((exported, fd) -> {
            file[0] = Memfd.size(fd);
            return new BatchMessage.Handle(HandleKind.VULKAN_FD, file[0] + 4096, 1, true, new byte[0]);
        }, 0, 8, ErrorCode.PROTOCOL);
        assertTrue(refusal.contains("handles[0] says " + (file[0] + 4096) + " bytes; the file behind its descriptor has " + file[0]), refusal);
    }

    @Test
    void aHandleThatOverstatesTheAllocationInsideItsFileIsRefusedByTheFilesHeaderBeforeTheDriverSeesIt() throws Exception {
        long[] file = new long[1];
        String refusal = refused((exported, fd) -> {
            file[0] = Memfd.size(fd);
            return new BatchMessage.Handle(HandleKind.VULKAN_FD, file[0], 1, true, new byte[0]);
        }, 0, 8, ErrorCode.PROTOCOL);
        assertTrue(refusal.contains("handles[0]: the device refused the VULKAN_FD handle: the descriptor's memory file header says ")
                && refusal.contains(" for an allocation of " + file[0] + " bytes (the file has " + file[0] + ")"), refusal);
    }

    @Test
    void aBufferPastTheAllocationIsRefusedNamingIt() throws Exception {
        long[] size = new long[1];
        String refusal = refused((exported, fd) -> {
            size[0] = exported.allocationSize();
            return new BatchMessage.Handle(HandleKind.VULKAN_FD, exported.allocationSize(), 1, true, new byte[0]);
        }, 0, -1, ErrorCode.LIMIT);
        assertTrue(refusal.contains("nodes[0].buffers[1] at offset 0 for " + (size[0] + 8) + " bytes is past the " + size[0]
                + " bytes of handles[0]"), refusal);
    }

    @Test
    void aDescriptorHandleWithoutFlagNewIsRefused() throws Exception {
        String refusal = refused((exported, fd) -> new BatchMessage.Handle(HandleKind.VULKAN_FD, exported.allocationSize(), 1, false,
                new byte[0]), 0, 8, ErrorCode.PROTOCOL);
        assertTrue(refusal.contains("handles[0] is a VULKAN_FD handle without flag NEW"), refusal);
    }

    @Test
    void aBufferAwayFromTheStartOfItsMemoryIsRefusedNamingIt() throws Exception {
        String refusal = refused((exported, fd) -> new BatchMessage.Handle(HandleKind.VULKAN_FD, exported.allocationSize(), 1, true,
                new byte[0]), 8, 8, ErrorCode.PROTOCOL);
        assertTrue(refusal.contains("nodes[0].buffers[1] lies at offset 8 of handles[0]; a buffer of a VULKAN_FD handle lies at offset 0"),
                refusal);
    }

    /**
     * Sends a child on lavapipe one BATCH of an int64 array of one value whose data buffer lies in a buffer of this
     * process's lavapipe device, exported as a descriptor, with the handle {@code forge} makes of the export and its
     * descriptor (which travels with the BATCH where the handle introduces itself), at {@code dataOffset} in it
     * for {@code dataLength} bytes (-1: 8 bytes past the allocation); returns the reason of the child's refusal, which must
     * carry {@code code}. The child's messenger must report nothing.
     */
    private static String refused(BiFunction<IpcMemoryHandle, Integer, BatchMessage.Handle> forge, long dataOffset, long dataLength,
                                  ErrorCode code) throws Exception {
        Device device = Lavapipe.device();
        Field field;
        try (DeviceArray sample = Batches.table(0, 1).toDeviceArray(Lavapipe.devices())) {
            field = sample.field().children().getFirst();
        }
        try (DeviceBuffer allocation = device.allocate(64)) {
            IpcMemoryHandle exported = Backends.of(device).capability(IpcMemory.class).orElseThrow().exportMemory(allocation.pointer(), 0);
            int fd = exported.fileDescriptor();
            try {
                BatchMessage.Handle handle = forge.apply(exported, fd);
                long length = dataLength < 0 ? exported.allocationSize() + 8 : dataLength;
                BatchMessage batch = new BatchMessage(1, false, List.of(handle), 0, new byte[0],
                        List.of(new BatchMessage.Node(1, 0, 0, List.of(new BatchMessage.Buffer(BatchMessage.NO_HANDLE, 0, 0),
                                new BatchMessage.Buffer(0, dataOffset, length)), 0, false)));
                int[] fds = handle.carriesDescriptor() ? new int[] {fd} : new int[0];
                try (HostileOwner owner = new HostileOwner(new Handshake.Welcome(2, DeviceNames.of(device), 1), field,
                        connection -> connection.send(MessageType.BATCH, batch.encode(), fds));
                     ChildJvm child = ChildJvm.startMain(DeviceShareChild.class, DeviceShareChild.LAVAPIPE, "-", owner.socket().toString())) {
                    String line = child.lineStartingWith("ERROR ");
                    String validation = child.lineStartingWith("VALIDATION ");
                    assertEquals("0 []", validation, "the messenger in the receiver's process");
                    assertEquals(3, child.waitFor(), child.errors());
                    ErrorMessage sent = owner.errorSent();
                    assertEquals(code, sent.code(), sent.reason());
                    assertTrue(line.contains(sent.reason()), line);
                    return sent.reason();
                }
            } finally {
                Memfd.close(fd);
                assertEquals(1, mostDescriptorsOfOneMemoryFile(), "the exported descriptor was this test's, now closed");
            }
        }
    }

    @Test
    void anExportedDescriptorIsASecondDescriptorOfLavapipesMemoryFile() {
        try (DeviceBuffer allocation = Lavapipe.device().allocate(64)) {
            assertEquals(1, mostDescriptorsOfOneMemoryFile(), "lavapipe keeps one descriptor per memory");
            int fd = Backends.of(Lavapipe.device()).capability(IpcMemory.class).orElseThrow().exportMemory(allocation.pointer(), 0).fileDescriptor();
            assertEquals(2, mostDescriptorsOfOneMemoryFile(), "what the owner's check above counts");
            Memfd.close(fd);
            assertEquals(1, mostDescriptorsOfOneMemoryFile());
        }
    }

    /**
     * {@return the most descriptors this process has open of one of lavapipe's memory files (0 if it has none):
     * lavapipe holds one per memory, and each export adds one until it is closed}
     */
    private static long mostDescriptorsOfOneMemoryFile() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith("/memfd:llvmpipe");
                } catch (IOException closedMeanwhile) {
                    return false;
                }
            }).map(fd -> {
                try {
                    return Files.getAttribute(fd, "unix:dev") + ":" + Files.getAttribute(fd, "unix:ino");
                } catch (IOException closedMeanwhile) {
                    return "closed";
                }
            }).filter(file -> !file.equals("closed"))
                    .collect(java.util.stream.Collectors.groupingBy(file -> file, java.util.stream.Collectors.counting()))
                    .values().stream().mapToLong(Long::longValue).max().orElse(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
