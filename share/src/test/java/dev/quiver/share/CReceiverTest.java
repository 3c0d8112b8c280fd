package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.host.ArrayReader;
import dev.quiver.testkit.CLibrary;
import dev.quiver.testkit.CProgram;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A receiver written in C from docs/SHARING.md alone ({@code share_receiver.c}, compiled at test time) takes
 * batches from this JVM, shared and copied, checks each buffer against its memory file and reads the values:
 * the proof that another runtime can implement the protocol.
 */
class CReceiverTest {
    static final Path RECEIVER = CProgram.compile(CLibrary.readResources(CReceiverTest.class, List.of("share_receiver.c")),
            List.of("-std=gnu11"));

    @Test
    void aCProgramReadsSharedAndCopiedBatchesAndReleasesThem() throws Exception {
        try (ShareServer server = ShareServer.bindPrivate()) {
            Process receiver = new ProcessBuilder(RECEIVER.toString(), server.path().toString()).redirectErrorStream(true).start();
            try (BufferedReader output = new BufferedReader(new InputStreamReader(receiver.getInputStream(), StandardCharsets.UTF_8));
                 ShareSession session = server.accept()) {
                assertEquals(receiver.pid(), session.peer().pid());
                try (SharedHostArena arena = SharedHostArena.create(1 << 20)) {
                    for (int seed = 0; seed < 3; seed++) {
                        try (DeviceArray built = Batches.table(seed, 200 + seed * 50).toDeviceArray();
                             DeviceArray placed = arena.copyOf(built)) {
                            session.send(seed == 1 ? built : placed);
                        }
                    }
                }
                session.end();
                assertEquals("SCHEMA id:l name:u score:g tags:+l", output.readLine());
                for (int seed = 0; seed < 3; seed++) {
                    try (DeviceArray expected = Batches.table(seed, 200 + seed * 50).toDeviceArray()) {
                        assertEquals("BATCH " + (seed + 1) + " " + (seed == 1 ? "copied" : "zero-copy") + " " + summary(expected),
                                output.readLine());
                    }
                }
                assertEquals("END", output.readLine());
                assertTrue(receiver.waitFor(30, TimeUnit.SECONDS));
                assertEquals(0, receiver.exitValue());
                assertTrue(session.awaitReleased(Duration.ofSeconds(10)));
            } finally {
                receiver.destroyForcibly();
            }
        }
        assertEquals(0, ShareStatistics.openRegions(), "the arena and the copy are freed once the C program released them");
    }

    /** {@return what share_receiver.c prints of a batch of the test table, computed here through the public reader} */
    static String summary(DeviceArray array) {
        ArrayReader table = ArrayReader.of(array);
        ArrayReader ids = table.child(0);
        ArrayReader names = table.child(1);
        ArrayReader scores = table.child(2);
        ArrayReader tags = table.child(3);
        long idSum = 0;
        long nullNames = 0;
        long nameBytes = 0;
        double scoreSum = 0;
        long tagSum = 0;
        for (long row = 0; row < table.length(); row++) {
            idSum += ids.isNull(row) ? 0 : ids.getLong(row);
            if (names.isNull(row)) {
                nullNames++;
            } else {
                nameBytes += names.getString(row).getBytes(StandardCharsets.UTF_8).length;
            }
            scoreSum += scores.isNull(row) ? 0 : scores.getDouble(row);
            if (!tags.isNull(row)) {
                for (Object tag : (List<?>) tags.getObject(row)) {
                    tagSum += tag == null ? 0 : ((Number) tag).longValue();
                }
            }
        }
        return "rows=" + table.length() + " ids=" + idSum + " nullnames=" + nullNames + " namebytes=" + nameBytes
                + " score2=" + (long) (scoreSum * 2) + " tags=" + tagSum;
    }
}
