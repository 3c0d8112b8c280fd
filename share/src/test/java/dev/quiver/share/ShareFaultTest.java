package dev.quiver.share;

import dev.quiver.DeviceArray;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Either process killed ({@code kill -9}) mid-stream, in a loop ({@code quiver.share.faultIterations} times
 * each way, 20 by default): the survivor loses nothing (the owner holds no batch and no memory file afterwards,
 * the receiver no mapping once it closes what it kept), does not crash, and reports the peer gone.
 */
class ShareFaultTest {
    private static final int ITERATIONS = Integer.getInteger("quiver.share.faultIterations", 20);

    @Test
    void killingTheReceiverMidStreamLeavesTheOwnerHoldingNothing() throws Exception {
        Random random = new Random(29);
        int openBefore = ShareStatistics.openRegions();
        for (int i = 0; i < ITERATIONS; i++) {
            boolean jvm = i % 2 == 1;
            try (ShareServer server = ShareServer.bindPrivate()) {
                Process receiver = jvm ? null : new ProcessBuilder(CReceiverTest.RECEIVER.toString(), server.path().toString(), "hold")
                        .redirectErrorStream(true).start();
                try (ChildJvm child = jvm ? ChildJvm.start("receive-hold", server.path().toString()) : null;
                     ShareSession session = server.accept()) {
                    CompletableFuture<ShareException> sender = CompletableFuture.supplyAsync(() -> sendUntilGone(session));
                    if (jvm) {
                        child.lineStartingWith("GOT ");
                    } else {
                        new BufferedReader(new InputStreamReader(receiver.getInputStream(), StandardCharsets.UTF_8)).readLine();
                    }
                    Thread.sleep(random.nextInt(40));
                    if (jvm) {
                        child.kill();
                    } else {
                        receiver.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                    }
                    ShareException gone = sender.get(60, TimeUnit.SECONDS);
                    assertEquals(ShareException.Reason.PEER_GONE, gone.reason(), "iteration " + i + ": " + gone.getMessage());
                    assertTrue(gone.getMessage().contains("receiver process " + session.peer().pid()), "iteration " + i + ": " + gone.getMessage());
                    assertTrue(session.awaitReleased(Duration.ofSeconds(30)));
                    assertTrue(session.isPeerGone());
                    assertEquals(0, session.outstanding(), "iteration " + i);
                } finally {
                    if (receiver != null) {
                        receiver.destroyForcibly();
                    }
                }
            }
            assertEquals(0, ShareStatistics.outstandingBatches(), "iteration " + i);
            assertEquals(openBefore, ShareStatistics.openRegions(), "iteration " + i + ": every memory file of the stream freed");
        }
    }

    /** Sends batches, alternately shared and copied, until the receiver is gone; returns how that was reported. */
    private static ShareException sendUntilGone(ShareSession session) {
        for (int b = 0; ; b++) {
            try (DeviceArray built = Batches.table(b, 200).toDeviceArray()) {
                if (b % 3 == 2) {
                    session.send(built);
                } else {
                    try (SharedHostArena arena = SharedHostArena.create(1 << 16); DeviceArray placed = arena.copyOf(built)) {
                        session.send(placed);
                    }
                }
            } catch (ShareException e) {
                return e;
            }
        }
    }

    @Test
    void killingTheOwnerMidStreamGivesTheReceiverAClearErrorAndKeepsWhatItReceived() throws Exception {
        Random random = new Random(11);
        for (int i = 0; i < ITERATIONS; i++) {
            int keepFor = 1 + random.nextInt(5);
            try (ChildJvm owner = ChildJvm.start("serve-forever", "100")) {
                Path socket = Path.of(owner.lineStartingWith("SOCKET "));
                Deque<DeviceArray> kept = new ArrayDeque<>();
                ShareException gone = null;
                try (ShareClient client = ShareClient.connect(socket)) {
                    for (int b = 0; b < 10_000 && gone == null; b++) {
                        if (b == keepFor) {
                            owner.kill();
                        }
                        try {
                            kept.addLast(client.next().orElseThrow().array());
                            if (kept.size() > 3) {
                                kept.removeFirst().close();
                            }
                        } catch (ShareException e) {
                            gone = e;
                        }
                    }
                }
                assertTrue(gone != null, "iteration " + i + ": the owner's death was reported");
                assertEquals(ShareException.Reason.PEER_GONE, gone.reason(), gone.getMessage());
                assertTrue(gone.getMessage().startsWith("owner process " + owner.pid()), gone.getMessage());
                for (DeviceArray array : kept) {
                    try (array) {
                        assertEquals(100, array.length(), "an array received before the owner died is still readable");
                        assertTrue(Batches.describe(array).contains("row-"));
                    }
                }
                assertEquals(0, ShareStatistics.mappedRegions(), "iteration " + i);
            }
        }
    }
}
