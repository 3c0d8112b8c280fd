package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The owner survives every receiver: one whose HELLO announces limits no batch fits ({@code max_mapped_bytes} 1)
 * is sent ERROR {@code LIMIT} naming the limit, its session fails with nothing held, and the server serves the next
 * receiver; {@link ShareSession#released()} counts the batches a receiver released, not those it left holding.
 */
class UnmetLimitsTest {
    private static final ReceiveOptions ONE_BYTE = new ReceiveOptions(8, true, 8, 1);

    @Test
    void aReceiverWhoseLimitsNoBatchFitsIsSentLimitAndTheNextIsServed() throws Exception {
        try (ShareServer server = ShareServer.bindPrivate();
             DeviceArray array = HostVector.utf8("s", "abc").toDeviceArray()) {
            CompletableFuture<ShareException> tiny = CompletableFuture.supplyAsync(() -> {
                try (ShareClient client = ShareClient.connect(server.path(), Devices.system().cpu(), ONE_BYTE)) {
                    return assertThrows(ShareException.class, client::next);
                }
            });
            try (ShareSession session = server.accept()) {
                ShareException e = assertThrows(ShareException.class, () -> session.send(array));
                assertEquals(ShareException.Reason.LIMIT, e.reason(), e.getMessage());
                assertTrue(e.getMessage().matches("cannot serve receiver process \\d+ .*: one batch lies in 1 region\\(s\\) of \\d+ bytes; "
                        + "the receiver's max_mapped_bytes is 1"), e.getMessage());
                assertSame(e, session.failure().orElseThrow());
                assertTrue(session.awaitReleased(Duration.ofSeconds(10)));
                assertEquals(0, session.outstanding(), "nothing stays held for it");
                assertThrows(IllegalStateException.class, () -> session.send(array), "the session ended");
            }
            ShareException refused = tiny.get(30, TimeUnit.SECONDS);
            assertEquals(ShareException.Reason.LIMIT, refused.reason(), refused.getMessage());
            assertTrue(refused.getMessage().contains(" refused: one batch lies in 1 region(s) of "), refused.getMessage());

            CompletableFuture<String> next = CompletableFuture.supplyAsync(() -> {
                try (ShareClient client = ShareClient.connect(server.path())) {
                    String seen;
                    try (DeviceArray received = client.next().orElseThrow().array()) {
                        seen = Batches.describe(received);
                    }
                    assertTrue(client.next().isEmpty(), "the owner ended the stream");
                    return seen;
                }
            });
            try (ShareSession session = server.accept()) {
                session.send(array);
                session.end();
                assertEquals("[abc]", next.get(30, TimeUnit.SECONDS));
                assertTrue(session.awaitReleased(Duration.ofSeconds(30)));
                assertEquals(1, session.released());
            }
        }
        assertEquals(0, ShareStatistics.openRegions());
    }

    @Test
    void aReceiverThatLeavesHoldingItsBatchesReleasedNone() throws Exception {
        try (ShareServer server = ShareServer.bindPrivate();
             DeviceArray array = HostVector.utf8("s", "abc").toDeviceArray()) {
            CompletableFuture<DeviceArray> kept = CompletableFuture.supplyAsync(() -> {
                try (ShareClient client = ShareClient.connect(server.path())) {
                    DeviceArray first = client.next().orElseThrow().array();
                    assertTrue(client.next().isEmpty());
                    return first;   // still open when the connection ends
                }
            });
            try (ShareSession session = server.accept()) {
                session.send(array);
                session.end();
                try (DeviceArray held = kept.get(30, TimeUnit.SECONDS)) {
                    assertTrue(session.awaitReleased(Duration.ofSeconds(30)), "let go of when the receiver left");
                    assertEquals(0, session.released(), "the receiver released nothing");
                    assertEquals("[abc]", Batches.describe(held));
                }
            }
        }
    }
}
