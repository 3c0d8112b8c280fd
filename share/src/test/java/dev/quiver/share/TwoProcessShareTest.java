package dev.quiver.share;

import dev.quiver.DeviceArray;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Arrays handed between two JVMs for real: this one and a {@link ChildJvm}, both ways, shared and copied. */
class TwoProcessShareTest {

    @Test
    void aChildJvmReceivesAStreamOfSharedBatchesWithStringsAndNullsAndReleasesThem() throws Exception {
        assertEquals(0, ShareStatistics.outstandingBatches());
        try (ShareServer server = ShareServer.bindPrivate();
             ChildJvm child = ChildJvm.start("receive", server.path().toString())) {
            try (ShareSession session = server.accept()) {
                assertEquals(child.pid(), session.peer().pid());
                for (int seed = 0; seed < 5; seed++) {
                    try (SharedHostArena arena = SharedHostArena.create(1 << 16);
                         DeviceArray built = Batches.table(seed, 100 + seed).toDeviceArray();
                         DeviceArray placed = arena.copyOf(built)) {
                        session.send(placed);
                    }
                }
                session.end();
                for (int seed = 0; seed < 5; seed++) {
                    String[] line = child.lineStartingWith("BATCH ").split(" ");
                    assertEquals(Long.toString(seed + 1), line[0]);
                    assertEquals("zero-copy", line[1], "an array built in a shared arena goes without a copy");
                    assertEquals(Batches.expectedDigest(seed, 100 + seed), line[2], "batch " + seed + " read in the child");
                }
                assertEquals("END", child.line());
                assertEquals(0, child.waitFor(), child.errors());
                assertTrue(session.awaitReleased(Duration.ofSeconds(30)));
            }
        }
        assertEquals(0, ShareStatistics.outstandingBatches());
        assertEquals(0, ShareStatistics.openRegions(), "every arena freed once the child released its batches");
    }

    @Test
    void anArrayOutsideSharedMemoryIsCopiedAndTheReceiverIsToldSo() throws Exception {
        try (ShareServer server = ShareServer.bindPrivate();
             ChildJvm child = ChildJvm.start("receive", server.path().toString());
             ShareSession session = server.accept();
             DeviceArray built = Batches.table(42, 1000).toDeviceArray()) {
            sendOneCopied(session, child, built, Batches.digest(built));
        }
        assertEquals(0, ShareStatistics.openRegions(), "the copy's memory file is freed on release");
    }

    @Test
    void thisJvmReceivesFromAnOwnerInAChildJvm() throws Exception {
        for (String mode : List.of("shared", "copied")) {
            try (ChildJvm child = ChildJvm.start("serve", "7", "4", "500", mode)) {
                String socket = child.lineStartingWith("SOCKET ");
                try (ShareClient client = ShareClient.connect(java.nio.file.Path.of(socket))) {
                    assertEquals(child.pid(), client.owner().pid());
                    assertEquals(Batches.table(0, 1).field(), client.schema());
                    for (int b = 0; b < 4; b++) {
                        ReceivedBatch batch = client.next().orElseThrow();
                        assertEquals(mode.equals("shared"), batch.isZeroCopy(), mode);
                        try (DeviceArray array = batch.array()) {
                            assertEquals(Batches.expectedDigest(7 + b, 500), Batches.digest(array), mode + " batch " + b);
                        }
                    }
                    assertEquals(Optional.empty(), client.next());
                }
                assertEquals("0 0", child.lineStartingWith("DONE "), "the owner held nothing once this JVM released");
                assertEquals(0, child.waitFor(), child.errors());
                assertEquals(0, ShareStatistics.mappedRegions());
            }
        }
    }

    @Test
    void theReceivedBatchesAreADeviceArrayStreamForOtherConsumers() throws Exception {
        try (ChildJvm child = ChildJvm.start("serve", "20", "3", "50", "shared");
             dev.quiver.stream.DeviceArrayStream stream = ShareClient.connect(java.nio.file.Path.of(child.lineStartingWith("SOCKET "))).stream()) {
            assertEquals(Batches.table(0, 1).field(), stream.schema());
            int b = 0;
            while (stream.hasNext()) {
                try (DeviceArray array = stream.next()) {
                    assertEquals(Batches.expectedDigest(20 + b, 50), Batches.digest(array));
                }
                b++;
            }
            assertEquals(3, b);
        }
    }

    @Test
    void receivedArraysStayReadableAfterTheOwnerExits() throws Exception {
        try (ChildJvm child = ChildJvm.start("serve", "3", "2", "64", "shared")) {
            String socket = child.lineStartingWith("SOCKET ");
            CompletableFuture<List<DeviceArray>> kept = new CompletableFuture<>();
            try (ShareClient client = ShareClient.connect(java.nio.file.Path.of(socket))) {
                DeviceArray first = client.next().orElseThrow().array();
                DeviceArray second = client.next().orElseThrow().array();
                kept.complete(List.of(first, second));
            }
            child.kill();
            for (int b = 0; b < 2; b++) {
                try (DeviceArray array = kept.get().get(b)) {
                    assertEquals(Batches.expectedDigest(3 + b, 64), Batches.digest(array));
                }
            }
            assertEquals(0, ShareStatistics.mappedRegions());
        }
    }

    /**
     * Sends {@code array} as the session's only batch to a child running {@code receive}, and checks that the
     * child got a copy whose values have {@code digest} and released it.
     */
    static void sendOneCopied(ShareSession session, ChildJvm child, DeviceArray array, String digest) throws InterruptedException {
        session.send(array);
        session.end();
        String[] line = child.lineStartingWith("BATCH ").split(" ");
        assertEquals("copied", line[1]);
        assertEquals(digest, line[2]);
        assertEquals(0, child.waitFor(), child.errors());
        assertTrue(session.awaitReleased(Duration.ofSeconds(30)));
    }
}
