package dev.quiver.cli;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.share.ReceiveOptions;
import dev.quiver.share.ReceivedBatch;
import dev.quiver.share.ShareClient;
import dev.quiver.share.ShareException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code quiver share} and {@code quiver attach} say is what happened: a receiver whose limits no batch fits
 * is sent ERROR {@code LIMIT} and the owner serves the next one; a receiver that leaves holding batches is
 * reported as leaving them, not as releasing them; batches received on the CPU and copied onto the device asked
 * for are counted as copies, not as zero-copy.
 */
class ShareAndAttachReportsTest {

    @Test
    void aReceiverWhoseLimitsNoBatchFitsIsSentLimitAndTheNextReceiverIsServed() throws Exception {
        try (ShareProcess owner = ShareProcess.start("--receivers", "2", "--generate", "100", "--batches", "2")) {
            ReceiveOptions oneByte = new ReceiveOptions(8, true, 8, 1);
            try (ShareClient tiny = ShareClient.connect(owner.socket(), Devices.system().cpu(), oneByte)) {
                ShareException e = assertThrows(ShareException.class, tiny::next);
                assertEquals(ShareException.Reason.LIMIT, e.reason(), e.getMessage());
                assertTrue(e.getMessage().matches("owner process \\d+ .* refused: one batch lies in 1 region\\(s\\) of \\d+ bytes; "
                        + "the receiver's max_mapped_bytes is 1"), e.getMessage());
            }
            CommandRun attach = CommandRun.of("attach", owner.socket().toString());
            assertEquals(0, attach.code(), attach.out() + attach.err());
            assertTrue(attach.out().contains("received 2 batches, 100 rows"), attach.out());
            assertEquals(1, owner.exitCode(), "one receiver could not be served: " + owner.printed());
            assertTrue(owner.printed().matches("(?s).*quiver share: after 0 of 2 batches: cannot serve receiver process \\d+ .*: "
                    + "one batch lies in 1 region\\(s\\) of \\d+ bytes; the receiver's max_mapped_bytes is 1\n.*"), owner.printed());
            assertEquals(1, owner.printed().split("released every batch", -1).length - 1, owner.printed());
        }
    }

    @Test
    void aReceiverThatLeavesHoldingBatchesIsReportedSo() throws Exception {
        try (ShareProcess owner = ShareProcess.start("--generate", "30", "--batches", "3")) {
            List<DeviceArray> held = new ArrayList<>();
            try (ShareClient client = ShareClient.connect(owner.socket())) {
                for (Optional<ReceivedBatch> batch = client.next(); batch.isPresent(); batch = client.next()) {
                    held.add(batch.get().array());
                }
            } finally {
                held.forEach(DeviceArray::close);   // after the connection ended: nothing more reaches the owner
            }
            assertEquals(3, held.size());
            assertEquals(0, owner.exitCode(), owner.printed());
            assertTrue(owner.printed().matches("(?s).*\nprocess \\d+ left holding 3 of 3 batches; let go of them.*"), owner.printed());
            assertFalse(owner.printed().contains("released every batch"), owner.printed());
        }
    }

    @Test
    void batchesReceivedOnTheCpuAndCopiedOntoTheDeviceAskedForAreCopies() throws Exception {
        try (ShareProcess owner = ShareProcess.start("--generate", "1000", "--batches", "4")) {
            CommandRun attach = CommandRun.of("attach", owner.socket().toString(), "--device", "vulkan:0", "--validate");
            assertEquals(0, attach.code(), attach.out() + attach.err());
            assertTrue(attach.out().contains("received 4 batches, 1000 rows"), attach.out());
            assertTrue(attach.out().matches("(?s).*\n0 zero-copy, 4 copied \\(4 received zero-copy on the CPU, copied here onto .+\\), "
                    + "every value valid\n.*"), attach.out());
            assertEquals(0, owner.exitCode(), "the receiver asks again on the CPU, and is served: " + owner.printed());
            assertTrue(owner.printed().contains("released every batch"), owner.printed());
        }
    }
}
