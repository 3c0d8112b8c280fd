package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.host.HostVector;
import dev.quiver.share.internal.posix.Memfd;
import dev.quiver.share.internal.posix.UnixSocket;
import dev.quiver.share.internal.posix.UnsealedMemfd;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.Connection;
import dev.quiver.share.internal.protocol.DeviceName;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.share.internal.protocol.IdList;
import dev.quiver.share.internal.protocol.Handshake;
import dev.quiver.share.internal.protocol.Message;
import dev.quiver.share.internal.protocol.MessageType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static dev.quiver.share.HostileBatches.FIRST_USE;
import static dev.quiver.share.HostileBatches.LATER_USE;
import static dev.quiver.share.HostileBatches.SCHEMA;
import static dev.quiver.share.HostileBatches.WELCOME;
import static dev.quiver.share.HostileBatches.receiveFrom;
import static dev.quiver.share.HostileBatches.refusedBatch;
import static dev.quiver.share.HostileBatches.refusedScript;
import static dev.quiver.share.HostileBatches.withBuffer;
import static dev.quiver.share.HostileBatches.withPlannedBatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What either end refuses, with the reason, and without leaking: a handshake of another version, device or
 * handle kind; batches whose buffers lie past their memory file, whose sizes lie, whose files are not sealed,
 * whose descriptors do not match, whose nodes do not fit the schema or whose contents break the format; and an
 * owner gone mid-stream.
 */
@SuppressWarnings("try")   // holds closed by try-with-resources, unused inside
class HostileInputTest implements LeavesNothingMapped {
    // ---- a receiver that asks for what the owner does not serve -------------------------------------------

    @Test
    void anOwnerRefusesAnotherProtocolVersionAndSaysWhich() throws Exception {
        ErrorMessage error = hello(new Handshake.Hello(3, HostileOwner.CPU, HandleKind.MEMFD.bit(), 8, 1 << 20), ShareException.Reason.VERSION);
        assertEquals(ErrorCode.VERSION, error.code());
        assertEquals("the receiver speaks protocol version 3; this owner speaks version 2 only (version 2 sends each memory file once "
                + "and names it by id after)", error.reason());
    }

    @Test
    void anOwnerRefusesAVersion1HelloByItsVersionNotItsShorterBody() throws Exception {
        byte[] v1 = java.util.Arrays.copyOf(new Handshake.Hello(1, HostileOwner.CPU, HandleKind.MEMFD.bit(), 8, 1 << 20).encode(), 48);
        ErrorMessage error = hello(v1, ShareException.Reason.VERSION);
        assertTrue(error.reason().startsWith("the receiver speaks protocol version 1; this owner speaks version 2 only"), error.reason());
    }

    @Test
    void anOwnerRefusesAHelloWithoutARegionBound() throws Exception {
        ErrorMessage error = hello(new Handshake.Hello(2, HostileOwner.CPU, HandleKind.MEMFD.bit(), 0, 1 << 20), ShareException.Reason.PROTOCOL);
        assertTrue(error.reason().contains("max_regions (0)"), error.reason());
    }

    @Test
    void anOwnerRefusesAHelloWhoseReservedFieldIsNotZero() throws Exception {
        byte[] hello = new Handshake.Hello(2, HostileOwner.CPU, HandleKind.MEMFD.bit(), 8, 1 << 20).encode();
        hello[52] = 5;   // u32 reserved, after max_regions
        ErrorMessage error = hello(hello, ShareException.Reason.PROTOCOL);
        assertEquals("HELLO: reserved is 5; it must be 0", error.reason());
    }

    @Test
    void anOwnerRefusesAnotherDeviceNamingBoth() throws Exception {
        byte[] uuid = new byte[16];
        uuid[0] = 0x5a;
        ErrorMessage error = hello(new Handshake.Hello(2, new DeviceName(2, 0, uuid), HandleKind.MEMFD.bit(), 8, 1 << 20), ShareException.Reason.DEVICE);
        assertEquals("the receiver asked for device type 2 id 0 uuid 5a000000000000000000000000000000; this owner serves "
                + "device type 1 id -1 (the CPU)", error.reason());
    }

    @Test
    void anOwnerRefusesAReceiverThatImportsNoMemoryFiles() throws Exception {
        ErrorMessage error = hello(new Handshake.Hello(2, HostileOwner.CPU, HandleKind.CUDA_IPC.bit(), 8, 1 << 20), ShareException.Reason.HANDLE_KIND);
        assertTrue(error.reason().contains("does not import MEMFD handles"), error.reason());
    }

    @Test
    void aHelloWithoutTheMagicIsRefused() throws Exception {
        try (ShareServer server = ShareServer.bindPrivate()) {
            CompletableFuture<ShareException> refused = CompletableFuture.supplyAsync(() -> assertThrows(ShareException.class, server::accept));
            try (Connection raw = new Connection(UnixSocket.connect(server.path()))) {
                raw.send(MessageType.HELLO, new byte[48]);
                Message answer = raw.receive();
                assertEquals(MessageType.ERROR, answer.type());
                assertEquals(ErrorCode.PROTOCOL, ErrorMessage.decode(answer.body()).code());
            }
            ShareException e = refused.get();
            assertEquals(ShareException.Reason.PROTOCOL, e.reason());
            assertTrue(e.getMessage().contains("does not start with the magic"), e.getMessage());
        }
    }

    private static ErrorMessage hello(Handshake.Hello hello, ShareException.Reason expected) throws Exception {
        return hello(hello.encode(), expected);
    }

    private static ErrorMessage hello(byte[] hello, ShareException.Reason expected) throws Exception {
        try (ShareServer server = ShareServer.bindPrivate()) {
            CompletableFuture<ShareException> refused = CompletableFuture.supplyAsync(() -> assertThrows(ShareException.class, server::accept));
            try (Connection raw = new Connection(UnixSocket.connect(server.path()))) {
                raw.send(MessageType.HELLO, hello);
                Message answer = raw.receive();
                assertEquals(MessageType.ERROR, answer.type());
                assertEquals(null, raw.receive(), "the owner closes after refusing");
                ShareException e = refused.get();
                assertEquals(expected, e.reason());
                assertTrue(e.getMessage().startsWith("refused receiver process " + ProcessHandle.current().pid()), e.getMessage());
                return ErrorMessage.decode(answer.body());
            }
        }
    }

    // ---- an owner that answers the handshake wrongly --------------------------------------------------------

    @Test
    void aReceiverRefusesAWelcomeOfAnotherVersion() throws Exception {
        try (HostileOwner owner = new HostileOwner(new Handshake.Welcome(7, HostileOwner.CPU, 1), SCHEMA, c -> { })) {
            ShareException e = assertThrows(ShareException.class, () -> ShareClient.connect(owner.socket()));
            assertEquals(ShareException.Reason.VERSION, e.reason());
            assertTrue(e.getMessage().contains("the owner answered with protocol version 7; this receiver speaks version 2"), e.getMessage());
            assertEquals(ErrorCode.VERSION, owner.errorSent().code());
        }
    }

    @Test
    void aReceiverRefusesAWelcomeForAnotherDevice() throws Exception {
        try (HostileOwner owner = new HostileOwner(new Handshake.Welcome(2, new DeviceName(2, 3, DeviceName.NO_UUID), 1), SCHEMA, c -> { })) {
            ShareException e = assertThrows(ShareException.class, () -> ShareClient.connect(owner.socket()));
            assertEquals(ShareException.Reason.DEVICE, e.reason());
            assertTrue(e.getMessage().contains("the owner serves device type 2 id 3; this receiver asked for device type 1 id -1"), e.getMessage());
        }
    }

    // ---- batches that lie -----------------------------------------------------------------------------------

    @Test
    void aBufferPastItsMemoryFileIsRefusedNamingIt() throws Exception {
        ShareException e = refusedBatch(batch -> withBuffer(batch, 2, 0, new BatchMessage.Buffer(0, 4096, 64)), ErrorCode.LIMIT);
        assertEquals(ShareException.Reason.LIMIT, e.reason());
        assertTrue(e.getMessage().contains("nodes[0].buffers[2] at offset 4096 for 64 bytes is past the 4096 bytes of handles[0]"), e.getMessage());
    }

    @Test
    void anOffsetThatOverflowsIsRefused() throws Exception {
        ShareException e = refusedBatch(batch -> withBuffer(batch, 1, 0, new BatchMessage.Buffer(0, 8, -8)), ErrorCode.LIMIT);
        assertTrue(e.getMessage().contains("for 18446744073709551608 bytes is past the 4096 bytes"), e.getMessage());
    }

    @Test
    void aHandleWhoseSizeIsNotItsFilesIsRefused() throws Exception {
        ShareException e = refusedBatch(batch -> new BatchMessage(batch.batchId(), batch.copied(),
                List.of(new BatchMessage.Handle(HandleKind.MEMFD, 1 << 20, 1, true, new byte[0])), 0, new byte[0], batch.nodes()), ErrorCode.LIMIT);
        assertTrue(e.getMessage().contains("handles[0] says 1048576 bytes; the memory file has 4096"), e.getMessage());
    }

    @Test
    void nodesThatDoNotFitTheSchemaAreRefused() throws Exception {
        ShareException e = refusedBatch(batch -> {
            List<BatchMessage.Node> nodes = new ArrayList<>(batch.nodes());
            BatchMessage.Node node = nodes.getFirst();
            nodes.set(0, new BatchMessage.Node(node.length(), node.nullCount(), node.offset(), node.buffers(), 1, false));
            return new BatchMessage(batch.batchId(), batch.copied(), batch.handles(), 0, new byte[0], nodes);
        }, ErrorCode.PROTOCOL);
        assertTrue(e.getMessage().contains("nodes[0] (field \"s\") has 1 children; its type u has 0"), e.getMessage());
    }

    @Test
    void stringOffsetsPastTheirDataAreRefused() throws Exception {
        // the data buffer is said to be 1 byte long, while the offsets say the strings take 3
        ShareException e = refusedBatch(batch -> {
            BatchMessage.Buffer data = batch.nodes().getFirst().buffers().get(2);
            return withBuffer(batch, 2, 0, new BatchMessage.Buffer(data.handle(), data.offset(), 1));
        }, ErrorCode.PROTOCOL);
        assertTrue(e.getMessage().contains("is not a valid array"), e.getMessage());
    }

    @Test
    void anEventTheReceiverCannotTakeIsRefused() throws Exception {
        ShareException e = refusedBatch(batch -> new BatchMessage(batch.batchId(), batch.copied(), batch.handles(), 2, new byte[8],
                batch.nodes()), ErrorCode.HANDLE_KIND);
        assertTrue(e.getMessage().contains("has an event of kind 2"), e.getMessage());
    }

    @Test
    void anUnsealedMemoryFileIsRefused() throws Exception {
        withPlannedBatch(plan -> {
            int unsealed = UnsealedMemfd.create(4096);
            try (HostileOwner owner = new HostileOwner(WELCOME, SCHEMA, c -> c.send(MessageType.BATCH, plan.message(1, FIRST_USE).encode(), unsealed))) {
                ShareException e = receiveFrom(owner);
                assertTrue(e.getMessage().contains("not a memory file sealed against shrinking"), e.getMessage());
            } finally {
                Memfd.close(unsealed);
            }
        });
    }

    @Test
    void aBatchWhoseDescriptorsAreMissingIsRefused() throws Exception {
        withPlannedBatch(plan -> {
            try (HostileOwner owner = new HostileOwner(WELCOME, SCHEMA, c -> c.send(MessageType.BATCH, plan.message(1, FIRST_USE).encode()))) {
                ShareException e = receiveFrom(owner);
                assertTrue(e.getMessage().contains("introduces 1 handle(s) with a descriptor; 0 descriptor(s) came with it"), e.getMessage());
                assertEquals(ErrorCode.PROTOCOL, owner.errorSent().code());
            }
        });
    }

    @Test
    void anOwnerGoneMidStreamIsAClearErrorAndArraysReceivedStayReadable() throws Exception {
        withPlannedBatch(plan -> {
            try (HostileOwner owner = new HostileOwner(WELCOME, SCHEMA, c -> {
                     c.send(MessageType.BATCH, plan.message(1, FIRST_USE).encode(), plan.fds(FIRST_USE));
                     c.shutdown();
                 });
                 ShareClient client = ShareClient.connect(owner.socket());
                 DeviceArray received = client.next().orElseThrow().array()) {
                ShareException e = assertThrows(ShareException.class, client::next);
                assertEquals(ShareException.Reason.PEER_GONE, e.reason());
                assertTrue(e.getMessage().matches("owner process \\d+ \\(uid \\d+\\) at .* closed the connection before the end of the stream.*"),
                        e.getMessage());
                assertEquals("[abc, null]", Batches.describe(received));
                assertThrows(ShareException.class, client::next, "the failure is sticky");
            }
        });
    }

    // ---- regions named by id (version 2) ---------------------------------------------------------------------

    @Test
    void aBatchNamingARegionNeverIntroducedIsRefused() throws Exception {
        ShareException e = refusedScript(plan -> c -> c.send(MessageType.BATCH, plan.message(1, LATER_USE).encode()), ErrorCode.PROTOCOL);
        assertTrue(e.getMessage().contains("BATCH 1: handles[0] names region 1, which was never introduced"), e.getMessage());
    }

    @Test
    void aRegionReusedAfterTheOwnerRetiredItIsRefused() throws Exception {
        ShareException e = refusedScript(plan -> c -> {
            c.send(MessageType.BATCH, plan.message(1, FIRST_USE).encode(), plan.fds(FIRST_USE));
            c.send(MessageType.REGION_CLOSED, IdList.encode(new long[] {1}, 1));
            c.send(MessageType.BATCH, plan.message(2, LATER_USE).encode());
        }, ErrorCode.PROTOCOL);
        assertTrue(e.getMessage().contains("BATCH 2: handles[0] names region 1, which the owner retired"), e.getMessage());
    }

    @Test
    void aRetiredIdIntroducedAgainForAnotherFileIsRefused() throws Exception {
        ShareException e = refusedScript(plan -> c -> {
            c.send(MessageType.BATCH, plan.message(1, FIRST_USE).encode(), plan.fds(FIRST_USE));
            c.send(MessageType.REGION_CLOSED, IdList.encode(new long[] {1}, 1));
            c.send(MessageType.BATCH, plan.message(2, FIRST_USE).encode(), plan.fds(FIRST_USE));
        }, ErrorCode.PROTOCOL);
        assertTrue(e.getMessage().contains("BATCH 2: handles[0] introduces region 1, an id used before"), e.getMessage());
    }

    @Test
    void aRegionIdNamedWithAnotherSizeIsRefused() throws Exception {
        ShareException e = refusedScript(plan -> c -> {
            c.send(MessageType.BATCH, plan.message(1, FIRST_USE).encode(), plan.fds(FIRST_USE));
            BatchMessage later = plan.message(2, LATER_USE);
            BatchMessage.Handle handle = later.handles().getFirst();
            c.send(MessageType.BATCH, new BatchMessage(2, false, List.of(new BatchMessage.Handle(handle.kind(), 1 << 20, 1, false,
                    new byte[0])), 0, new byte[0], later.nodes()).encode());
        }, ErrorCode.LIMIT);
        assertTrue(e.getMessage().contains("BATCH 2: handles[0] says 1048576 bytes for region 1; the region has 4096"), e.getMessage());
    }

    @Test
    void closingARegionNeverIntroducedIsRefused() throws Exception {
        ShareException e = refusedScript(plan -> c -> c.send(MessageType.REGION_CLOSED, IdList.encode(new long[] {9}, 1)), ErrorCode.PROTOCOL);
        assertTrue(e.getMessage().contains("REGION_CLOSED names region 9, which is not known"), e.getMessage());
    }

    @Test
    void aRegionPastTheReceiversBoundIsRefused() throws Exception {
        withPlannedBatch(plan -> {
            try (HostileOwner owner = new HostileOwner(WELCOME, SCHEMA, c -> c.send(MessageType.BATCH, plan.message(1, FIRST_USE).encode(),
                         plan.fds(FIRST_USE)));
                 ShareClient client = ShareClient.connect(owner.socket(), dev.quiver.Devices.system().cpu(), new ReceiveOptions(8, true, 1, 1024))) {
                ShareException e = assertThrows(ShareException.class, client::next);
                assertEquals(ShareException.Reason.LIMIT, e.reason());
                assertTrue(e.getMessage().contains("introduces region 1 of 4096 bytes while 0 regions of 0 bytes are known; this receiver keeps "
                        + "at most 1 regions of 1024 bytes"), e.getMessage());
            }
        });
    }

    @Test
    void aRegionNamedByIdIsMappedOnceAndUnmappedWhenRetiredAndUnused() throws Exception {
        withPlannedBatch(plan -> {
            try (HostileOwner owner = new HostileOwner(WELCOME, SCHEMA, c -> {
                     c.send(MessageType.BATCH, plan.message(1, FIRST_USE).encode(), plan.fds(FIRST_USE));
                     c.send(MessageType.BATCH, plan.message(2, LATER_USE).encode());
                     c.send(MessageType.REGION_CLOSED, IdList.encode(new long[] {1}, 1));
                     c.send(MessageType.END, new byte[0]);
                 });
                 ShareClient client = ShareClient.connect(owner.socket())) {
                DeviceArray first = client.next().orElseThrow().array();
                DeviceArray second = client.next().orElseThrow().array();
                assertEquals(1, ShareStatistics.mappedRegions(), "the second batch names the region the first introduced");
                assertEquals("[abc, null]", Batches.describe(second));
                first.close();
                assertTrue(client.next().isEmpty());
                assertEquals(1, ShareStatistics.mappedRegions(), "retired, but the second batch still uses it");
                second.close();
                assertEquals(0, ShareStatistics.mappedRegions(), "retired and unused: unmapped");
            }
        });
    }
}
