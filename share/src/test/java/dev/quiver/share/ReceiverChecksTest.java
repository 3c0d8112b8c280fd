package dev.quiver.share;

import dev.quiver.Devices;
import dev.quiver.share.internal.posix.Memfd;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.share.internal.protocol.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

import static dev.quiver.share.HostileBatches.FIRST_USE;
import static dev.quiver.share.HostileBatches.LATER_USE;
import static dev.quiver.share.HostileBatches.SCHEMA;
import static dev.quiver.share.HostileBatches.WELCOME;
import static dev.quiver.share.HostileBatches.assertToldWhy;
import static dev.quiver.share.HostileBatches.refusedBatch;
import static dev.quiver.share.HostileBatches.refusedScript;
import static dev.quiver.share.HostileBatches.withBuffer;
import static dev.quiver.share.HostileBatches.withPlannedBatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checks a receiver makes of every BATCH besides its memory (docs/SHARING.md, "BATCH"): the id is never 0 and
 * larger than the id before it, every reserved field is 0, no batch comes past the allowance its REQUESTs granted,
 * and a region it cannot map refuses the batch with ERROR to the owner. Each is refused with the field named, the
 * owner is sent the ERROR, and nothing stays mapped.
 */
class ReceiverChecksTest implements LeavesNothingMapped {
    /** Byte offsets of the reserved fields in the BATCH of the planned batch: one handle, one node of 3 buffers. */
    private static final int HANDLE_RESERVED = 44;
    private static final int NODES_RESERVED = 60;
    private static final int NODE_RESERVED = 100;
    private static final int SECOND_BUFFER_RESERVED = 132;

    @Test
    void aBatchWithIdZeroIsRefused() throws Exception {
        ShareException e = refusedScript(plan -> c -> c.send(MessageType.BATCH, plan.message(0, FIRST_USE).encode(), plan.fds(FIRST_USE)),
                ErrorCode.PROTOCOL);
        assertTrue(e.getMessage().contains("BATCH: batch_id is 0; a batch id is never 0"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"1, 1", "5, 3"})
    void aBatchIdNotLargerThanTheOneBeforeIsRefused(long first, long second) throws Exception {
        ShareException e = refusedScript(plan -> c -> {
            c.send(MessageType.BATCH, plan.message(first, FIRST_USE).encode(), plan.fds(FIRST_USE));
            c.send(MessageType.BATCH, plan.message(second, LATER_USE).encode());
        }, ErrorCode.PROTOCOL);
        assertTrue(e.getMessage().contains("BATCH " + second + ": batch_id is not larger than " + first + ", the id of the batch before; "
                + "batch ids increase"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({
            HANDLE_RESERVED + ", handles[0].reserved",
            NODES_RESERVED + ", reserved",
            NODE_RESERVED + ", nodes[0].reserved",
            SECOND_BUFFER_RESERVED + ", nodes[0].buffers[1].reserved"})
    void aReservedFieldThatIsNotZeroIsRefusedNamingIt(int offset, String field) throws Exception {
        ShareException e = refusedScript(plan -> c -> {
            byte[] body = plan.message(7, FIRST_USE).encode();
            ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, 5);
            c.send(MessageType.BATCH, body, plan.fds(FIRST_USE));
        }, ErrorCode.PROTOCOL);
        assertTrue(e.getMessage().contains("BATCH 7: " + field + " is 5; it must be 0"), e.getMessage());
    }

    @Test
    void theReservedFieldsSitWhereTheTestChangesThem() throws Exception {
        withPlannedBatch(plan -> {
            ByteBuffer body = ByteBuffer.wrap(plan.message(7, FIRST_USE).encode()).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(1, body.getInt(HANDLE_RESERVED - 4), "the handle's flags (NEW) come before its reserved field");
            assertEquals(1, body.getInt(NODES_RESERVED - 4), "node_count comes before its reserved field");
            assertEquals(3, body.getInt(NODE_RESERVED - 12), "n_buffers of the utf8 node");
            assertEquals(0, body.getInt(SECOND_BUFFER_RESERVED - 4), "the second buffer names handle 0");
        });
    }

    @Test
    void anUnknownNullCountWithoutAValidityBufferIsRefusedAsTheCDataInterfaceRules() throws Exception {
        ShareException e = refusedBatch(batch -> {
            BatchMessage.Node node = withBuffer(batch, 0, 0, new BatchMessage.Buffer(BatchMessage.NO_HANDLE, 0, 0)).nodes().getFirst();
            return new BatchMessage(batch.batchId(), batch.copied(), batch.handles(), 0, new byte[0], List.of(new BatchMessage.Node(
                    node.length(), -1, node.offset(), node.buffers(), node.childCount(), node.hasDictionary())));
        }, ErrorCode.PROTOCOL);
        assertTrue(e.getMessage().contains("buffer is NULL but null_count is -1"), e.getMessage());
    }

    @Test
    void batchesPastTheAllowanceAreRefusedNamingIt() throws Exception {
        ShareException e = refusedScript(plan -> c -> {
            MessageType[] types = new MessageType[9];
            byte[][] bodies = new byte[9][];
            for (int i = 0; i < 9; i++) {
                types[i] = MessageType.BATCH;
                bodies[i] = plan.message(i + 1, i == 0 ? FIRST_USE : LATER_USE).encode();
            }
            c.send(types, bodies, plan.fds(FIRST_USE));   // one write: all nine came before any later REQUEST could reach the owner
        }, ErrorCode.PROTOCOL, 12);
        assertTrue(e.getMessage().contains("BATCH 9 is past the allowance: the REQUESTs this receiver had sent when it arrived allowed "
                + "8 batches, and 8 came before it"), e.getMessage());
    }

    @Test
    void aRegionThatCannotBeMappedRefusesTheBatchWithAnErrorToTheOwner() throws Exception {
        long huge = 1L << 62;   // past any address space: mmap fails with ENOMEM, as a file of a system that cannot map it does
        int fd = Memfd.create("quiver-unmappable", huge);
        try {
            withPlannedBatch(plan -> {
                BatchMessage batch = plan.message(1, FIRST_USE);
                BatchMessage unmappable = new BatchMessage(1, false, List.of(new BatchMessage.Handle(HandleKind.MEMFD, huge, 1, true, new byte[0])),
                        0, new byte[0], batch.nodes());
                try (HostileOwner owner = new HostileOwner(WELCOME, SCHEMA, c -> c.send(MessageType.BATCH, unmappable.encode(), fd));
                     ShareClient client = ShareClient.connect(owner.socket(), Devices.system().cpu(),
                             new ReceiveOptions(8, true, 8, Long.MAX_VALUE))) {
                    ShareException e = assertThrows(ShareException.class, client::next);
                    assertEquals(ShareException.Reason.LIMIT, e.reason(), e.getMessage());
                    assertTrue(e.getMessage().contains("BATCH 1: handles[0]: this receiver cannot map the region's " + huge
                            + " bytes: mmap failed: ENOMEM 12"), e.getMessage());
                    assertToldWhy(owner, ErrorCode.LIMIT);
                    assertEquals(e.getMessage().substring(e.getMessage().indexOf("BATCH 1")), owner.errorSent().reason());
                }
            });
        } finally {
            Memfd.close(fd);
        }
        assertEquals(0, Arrays.stream(new java.io.File("/proc/self/fd").list()).filter(ReceiverChecksTest::isUnmappable).count(),
                "the receiver closed the descriptor it received");
    }

    private static boolean isUnmappable(String fd) {
        try {
            return java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd", fd)).toString().contains("quiver-unmappable");
        } catch (java.io.IOException | UnsupportedOperationException gone) {
            return false;
        }
    }
}
