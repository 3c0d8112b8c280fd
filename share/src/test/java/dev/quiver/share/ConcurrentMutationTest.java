package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.testkit.CLibrary;
import dev.quiver.testkit.CProgram;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An owner in a child process, written in C ({@code mutating_owner.c}, {@code mutating_mutator.c}), keeps
 * rewriting the structural bytes of every batch it sent and that is not yet released (offsets, list-view sizes,
 * views' lengths, buffer indices and offsets, variadic sizes, union type ids and offsets, run ends, dictionary
 * indices, validity bits) while this JVM receives, validates, reads every value, and copies each batch
 * ({@link MutationReader}: a batch received without its contents validated is copied once it passed the check), over
 * every type of the API's catalogue and the test table ({@link MutationTemplates}),
 * with contents validated at receipt and without. It proves:
 * <ul>
 *   <li>zero JVM faults: a read outside a mapping kills the test's JVM (surefire reports the fork crashed), and
 *       every mapping of a received region has an inaccessible guard after it (see {@code Memfd.mapPrivate}), so
 *       a read just past a region faults instead of reading a neighbour; an {@link Error} fails the test;</li>
 *   <li>every failure is an exception, counted per step and class and printed;</li>
 *   <li>batches the owner leaves alone (every {@code QUIET_EVERY}-th id) read exactly as sent, with no failure;</li>
 *   <li>every batch released once: the owner counts each batch sent, released by RELEASED (an id it does not hold
 *       is counted as unknown, so a second release shows) or let go because its connection ended (a refused batch
 *       ends the connection), and the counts add up; a connection that ended with END released all it was sent;
 *       no region stays mapped here.</li>
 * </ul>
 *
 * <p>A JVM that dies leaves the stream, batch and step it was reading in
 * {@code target/concurrent-mutation-last-read.txt} ({@link Breadcrumb}).
 *
 * <p>The run sends {@code quiver.share.mutation.batches} batches (400 by default, spread over the streams). The
 * long run, 10,000 batches: {@code mvn -B -o -pl share test -Dtest=ConcurrentMutationTest
 * -Dquiver.share.mutation.batches=10000}; its result is in docs/PERFORMANCE.md ("Concurrent mutation").
 */
class ConcurrentMutationTest {
    private static final int BATCHES = Integer.getInteger("quiver.share.mutation.batches", 400);
    private static final Path OWNER = CProgram.compile(CLibrary.readResources(ConcurrentMutationTest.class,
            List.of("mutating_owner.h", "mutating_owner.c", "mutating_mutator.c")), List.of("-std=gnu11", "-pthread"));
    private static final int QUIET_EVERY = 8;

    @Test
    void aReceiverReadsBatchesItsOwnerKeepsRewritingWithoutAFault() throws Exception {
        Path directory = Files.createTempDirectory("quiver-mutation", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path templates = directory.resolve("templates");
        List<MutationTemplates.Stream> streams = MutationTemplates.write(templates);
        int perStream = Math.max(1, (BATCHES + streams.size() - 1) / streams.size());
        Path socket = directory.resolve("s");
        Process owner = new ProcessBuilder(OWNER.toString(), socket.toString(), templates.toString(), Integer.toString(perStream), "36")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        BufferedReader output = new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8));
        try {
            assertEquals("SOCKET " + socket, output.readLine());
            Thread drain = Thread.ofPlatform().daemon().start(() -> output.lines().forEach(lines::add));
            Breadcrumb breadcrumb = Breadcrumb.inTarget("concurrent-mutation-last-read.txt");
            MutationReader reader = new MutationReader(breadcrumb);
            MutationReader quietReader = new MutationReader(breadcrumb);
            long[] counts = receiveEverything(owner, socket, streams, reader, quietReader);
            assertTrue(owner.waitFor(60, TimeUnit.SECONDS), "the owner ends once the last stream ended");
            drain.join(10_000);
            assertEquals(0, owner.exitValue(), String.join("\n", lines));
            report(counts, reader, lines);
            assertEquals(Map.of(), quietReader.failures(), () -> "batches nobody rewrote read without a failure: " + quietReader.examples());
            assertTrue(counts[1] > 0, "some batches were left alone and compared");
            checkReleases(lines, counts[0]);
        } finally {
            owner.destroyForcibly();
            Files.deleteIfExists(socket);
            Files.deleteIfExists(templates);
            Files.deleteIfExists(directory);
        }
        assertEquals(0, ShareStatistics.mappedRegions(), "every region this JVM mapped is unmapped");
    }

    /**
     * Connects again and again, going through the streams, until the last one ended with END.
     *
     * @return batches received, of which left alone
     */
    private static long[] receiveEverything(Process owner, Path socket, List<MutationTemplates.Stream> streams, MutationReader reader,
                                            MutationReader quietReader) {
        long received = 0;
        long quiet = 0;
        int expected = 0;   // the owner moves to the next stream once it sent END
        while (expected < streams.size()) {
            assertTrue(owner.isAlive(), "the owner exited before stream " + expected + " ended");
            ReceiveOptions options = new ReceiveOptions(8, streams.get(expected).validated()).withTimeout(Duration.ofSeconds(60));
            try (ShareClient client = ShareClient.connect(socket, Devices.system().cpu(), options)) {
                int stream = MutationTemplates.index(client.schema().name());
                expected = stream;
                String name = streams.get(stream).name() + (options.validateContents() ? ", contents validated," : ", contents not validated,");
                for (Optional<ReceivedBatch> batch = client.next(); batch.isPresent(); batch = client.next()) {
                    received++;
                    try (DeviceArray array = batch.get().array()) {
                        if (batch.get().batchId() % QUIET_EVERY == 0) {
                            quiet++;
                            String read = Batches.describe(array);
                            assertTrue(streams.get(stream).descriptions().contains(read), streams.get(stream).name()
                                    + ": batch " + batch.get().batchId() + ", left alone, reads " + read);
                            quietReader.readEverything(array, name + " batch " + batch.get().batchId() + " (left alone)");
                        } else {
                            reader.readEverything(array, name + " batch " + batch.get().batchId());
                        }
                    }
                }
                expected = stream + 1;
            } catch (ShareException e) {
                reader.count("receive: ShareException " + e.reason() + (e.getCause() == null ? "" : " from " + e.getCause().getClass().getSimpleName()));
            }
        }
        return new long[] {received, quiet};
    }

    private static void report(long[] counts, MutationReader reader, List<String> lines) {
        StringBuilder out = new StringBuilder("concurrent mutation: " + counts[0] + " batches received, " + counts[1]
                + " left alone; " + reader.steps() + " reads of rewritten batches; failures:");
        reader.failures().forEach((what, n) -> out.append("\n  ").append(what).append(": ").append(n)
                .append(reader.examples().containsKey(what) ? " (first: " + reader.examples().get(what) + ")" : ""));
        for (String line : lines) {
            if (line.startsWith("END") || line.startsWith("REWRITES")) {
                out.append("\n  owner: ").append(line);
            }
        }
        System.out.println(out);
    }

    private static final Pattern END = Pattern.compile("END after (\\d+) batches sent=(\\d+) released=(\\d+) dropped=(\\d+) unknown=(\\d+)");
    private static final Pattern CONN = Pattern.compile("CONN stream=(\\d+) sent=(\\d+) released=(\\d+) dropped=(\\d+) end=(\\w+)");

    /** Checks the owner's counts: every batch sent was released once, by RELEASED or by its connection's end. */
    private static void checkReleases(List<String> lines, long received) {
        Matcher end = lines.stream().map(END::matcher).filter(Matcher::matches).findFirst()
                .orElseThrow(() -> new AssertionError("the owner printed no END line: " + lines));
        long sent = Long.parseLong(end.group(2));
        long released = Long.parseLong(end.group(3));
        long dropped = Long.parseLong(end.group(4));
        assertEquals(0, Long.parseLong(end.group(5)), "RELEASED of an id the owner did not hold (twice, or never sent): " + lines);
        assertEquals(sent, released + dropped, "every batch sent was let go of once");
        assertTrue(released <= received, "no more releases than batches received");
        assertTrue(sent >= BATCHES, "the owner sent at least " + BATCHES + " batches, not " + sent);
        List<String> unclean = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher conn = CONN.matcher(lines.get(i));
            if (conn.matches() && conn.group(5).equals("END") && !conn.group(4).equals("0")) {
                unclean.add(lines.subList(Math.max(0, i - 2), i + 1).toString());
            }
        }
        assertEquals(List.of(), unclean, "a connection that ended with END had every batch released by RELEASED");
    }
}
