package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.testkit.CLibrary;
import dev.quiver.testkit.CProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Either process killed ({@code kill -9}) at a random moment mid-stream, in a loop of
 * {@code quiver.share.faultIterations} iterations each way (200 by default): the survivor loses nothing (the
 * owner holds no batch and no memory file afterwards, the receiver no mapping once it closes what it kept), does
 * not crash, and reports the peer gone.
 *
 * <p>The killed process is a fresh one every iteration. It is a JVM every {@code quiver.share.faultJvmEvery}-th
 * iteration (10 by default: 20 of 200) and otherwise a C program that starts in milliseconds: for the receiver,
 * {@code share_receiver.c} holding every batch; for the owner, {@code share_owner.c}, written from
 * docs/SHARING.md, which serves the rows of {@link Batches#table} each in a memory file of its own. The survivor
 * is this JVM, which lives through every iteration: the receivers' owner is one {@link ShareServer} that accepts
 * each iteration's receiver; the owners' receiver is a new {@link ShareClient} each iteration.
 *
 * <p>Time per iteration, measured on the 2-core machine of docs/PERFORMANCE.md with other builds running (load
 * average 6 to 8): with a C process about 50 ms killing the receiver and 40 ms killing the owner (the class ran
 * in 19 s with {@code -Dquiver.share.faultJvmEvery=1000}, no JVM at all); with a JVM about 1.1 s and 0.9 s, most
 * of it the JVM's start. The class as run by default, 200 iterations each way with 20 JVMs each, took 57 s
 * (31 s and 26 s) in one run and 88 s (48 s and 40 s) in another at load average 8 to 10, the JVMs' starts
 * slowing most; {@code -Dquiver.share.faultJvmEvery=20} halves their share. Before, when every iteration that killed the owner and every other one that killed the
 * receiver started a JVM, an iteration took 1.15 s on average either way (10 each way: 23 s), so 200 each way would
 * have taken about 8 minutes.
 */
class ShareFaultTest {
    private static final int ITERATIONS = Integer.getInteger("quiver.share.faultIterations", 200);
    private static final int JVM_EVERY = Integer.getInteger("quiver.share.faultJvmEvery", 10);
    private static final int ROWS = 100;

    static {
        if (ITERATIONS < 1 || JVM_EVERY < 1) {
            throw new IllegalArgumentException("quiver.share.faultIterations and quiver.share.faultJvmEvery are at least 1, not "
                    + ITERATIONS + " and " + JVM_EVERY);
        }
    }
    private static final Path OWNER = CProgram.compile(CLibrary.readResources(ShareFaultTest.class, List.of("share_owner.c")),
            List.of("-std=gnu11"));

    @Test
    void killingTheReceiverMidStreamLeavesTheOwnerHoldingNothing() throws Exception {
        Random random = new Random(29);
        int openBefore = ShareStatistics.openRegions();
        try (ShareServer server = ShareServer.bindPrivate()) {
            for (int i = 0; i < ITERATIONS; i++) {
                boolean jvm = i % JVM_EVERY == JVM_EVERY - 1;
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
                    long pid = jvm ? child.pid() : receiver.pid();
                    if (jvm) {
                        child.kill();
                    } else {
                        receiver.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                    }
                    ShareException gone = sender.get(60, TimeUnit.SECONDS);
                    assertEquals(ShareException.Reason.PEER_GONE, gone.reason(), "iteration " + i + ": " + gone.getMessage());
                    assertEquals(pid, session.peer().pid(), "iteration " + i);
                    assertTrue(gone.getMessage().contains("receiver process " + pid), "iteration " + i + ": " + gone.getMessage());
                    assertTrue(session.awaitReleased(Duration.ofSeconds(30)));
                    assertTrue(session.isPeerGone());
                    assertEquals(0, session.outstanding(), "iteration " + i);
                } finally {
                    if (receiver != null) {
                        receiver.destroyForcibly();
                    }
                }
                assertEquals(0, ShareStatistics.outstandingBatches(), "iteration " + i);
                assertEquals(openBefore, ShareStatistics.openRegions(), "iteration " + i + ": every memory file of the stream freed");
            }
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
    void killingTheOwnerMidStreamGivesTheReceiverAClearErrorAndKeepsWhatItReceived(@TempDir Path sockets) throws Exception {
        Random random = new Random(11);
        for (int i = 0; i < ITERATIONS; i++) {
            int keepFor = 1 + random.nextInt(5);
            boolean jvm = i % JVM_EVERY == JVM_EVERY - 1;
            try (KilledOwner owner = jvm ? KilledOwner.jvm() : KilledOwner.c(sockets.resolve("owner-" + i))) {
                Deque<ReceivedBatch> kept = new ArrayDeque<>();
                ShareException gone = null;
                try (ShareClient client = ShareClient.connect(owner.socket())) {
                    try (DeviceArray expected = Batches.table(0, 1).toDeviceArray()) {
                        assertEquals(expected.field(), client.schema(), "iteration " + i + ": the schema of the test table");
                    }
                    for (int b = 0; b < 10_000 && gone == null; b++) {
                        if (b == keepFor) {
                            Thread.sleep(random.nextInt(10));
                            owner.kill();
                        }
                        try {
                            kept.addLast(client.next().orElseThrow());
                            if (kept.size() > 3) {
                                kept.removeFirst().array().close();
                            }
                        } catch (ShareException e) {
                            gone = e;
                        }
                    }
                }
                assertTrue(gone != null, "iteration " + i + ": the owner's death was reported");
                assertEquals(ShareException.Reason.PEER_GONE, gone.reason(), gone.getMessage());
                assertTrue(gone.getMessage().startsWith("owner process " + owner.pid()), gone.getMessage());
                assertTrue(!kept.isEmpty(), "iteration " + i + ": batches received before the kill");
                for (ReceivedBatch batch : kept) {
                    try (DeviceArray array = batch.array()) {
                        assertTrue(batch.isZeroCopy(), "iteration " + i + ": the owner's own memory");
                        assertEquals(Batches.expectedDigest((int) batch.batchId() - 1, ROWS), Batches.digest(array),
                                "iteration " + i + ": batch " + batch.batchId() + ", received before the owner died, still reads its values");
                    }
                }
                assertEquals(0, ShareStatistics.mappedRegions(), "iteration " + i);
            }
        }
    }

    /**
     * The owner process of one iteration of the owner-kill loop, a JVM running {@link ShareChild} or
     * {@code share_owner.c}: where it listens, its pid, and how to kill it at once.
     */
    private record KilledOwner(Path socket, long pid, Runnable killer) implements AutoCloseable {
        static KilledOwner jvm() {
            ChildJvm child = ChildJvm.start("serve-forever", Integer.toString(ROWS));
            return new KilledOwner(Path.of(child.lineStartingWith("SOCKET ")), child.pid(), child::close);
        }

        static KilledOwner c(Path socket) throws IOException {
            Process process = new ProcessBuilder(OWNER.toString(), socket.toString(), Integer.toString(ROWS))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String first = output.readLine();
            if (first == null || !first.equals("SOCKET " + socket)) {
                process.destroyForcibly();
                throw new IllegalStateException("share_owner printed " + first + " instead of its socket");
            }
            Thread.ofVirtual().start(() -> {   // drains the SENT lines until the owner is killed
                try {
                    output.lines().forEach(line -> { });
                } catch (java.io.UncheckedIOException killed) {
                    // the stream closes with the killed process
                }
            });
            return new KilledOwner(socket, process.pid(), () -> {
                try {
                    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        void kill() {
            killer.run();
        }

        @Override
        public void close() {
            killer.run();
        }
    }
}
