package dev.quiver.cli.flight;

import dev.quiver.cli.GeneratedBatches;
import dev.quiver.DeviceArray;
import dev.quiver.host.ArrayReader;
import dev.quiver.flight.ipc.ArrowIpcReading;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quiver flight serve} in a child JVM and {@code quiver flight get} here: generated data behind a
 * login, served from Vulkan, fetched onto OpenCL and written to an Arrow IPC file; that file served from
 * OpenCL, put back to that server with {@code flight put}, listed, and fetched onto the CPU; every value
 * compared with what was generated. A wrong password and a
 * ticket the server did not issue end with exit code 1 and the server's reason. A stream served as four endpoints
 * is fetched from all of them at once, in order (every value compared) and as the batches come. A server that
 * compresses with zstd is fetched value for value, and a file put with lz4 comes back the same; an unknown
 * {@code --compression} is a usage error for both.
 */
class FlightCommandTest {
    private static final String PASSWORD = "s3cret-for-the-test";
    private static final GeneratedBatches GENERATED = new GeneratedBatches(1_000, 4);

    @Test
    void generatedDataGoesFromVulkanToOpenClToAFileAndBackFromThatFile(@TempDir Path directory) throws Exception {
        Path fetched = directory.resolve("fetched.arrow");
        Path password = Files.writeString(directory.resolve("password"), PASSWORD + "\n");
        Path wrongPassword = Files.writeString(directory.resolve("wrong"), "guess\n");
        try (ServeProcess server = ServeProcess.start(1, Map.of("QUIVER_FLIGHT_PASSWORD", PASSWORD),
                "--generate", "1000", "--batches", "4", "--device", "vulkan", "--user", "tester")) {
            Run wrong = Run.of("flight", "get", server.uri(), server.ticket("generated"), "--user", "tester", "--password-file", wrongPassword.toString());
            assertEquals(1, wrong.code(), wrong.out());
            assertTrue(wrong.err().contains("UNAUTHENTICATED"), wrong.err());
            Run list = Run.of("flight", "list", server.uri(), "--user", "tester", "--password-file", password.toString());
            assertEquals(0, list.code(), list.err());
            assertEquals(java.util.List.of("stream generated ticket " + server.ticket("generated") + " rows 1000"), list.out().lines().toList(),
                    "flight list prints what flight serve printed");
            Run get = Run.of("flight", "get", server.uri(), server.ticket("generated"), "--user", "tester", "--password-file", password.toString(),
                    "--device", "opencl", "--output", fetched.toString());
            assertEquals(0, get.code(), get.err());
            assertTrue(get.out().startsWith("received 4 batches, 1000 rows"), get.out());
            assertTrue(get.out().contains("onto OPENCL:0"), get.out());
        }
        assertGenerated(fetched);
        Path again = directory.resolve("again.arrow");
        try (ServeProcess server = ServeProcess.start(1, Map.of(), "--file", fetched.toString(), "--device", "opencl")) {
            Run notIssued = Run.of("flight", "get", server.uri(), "made-up-ticket");
            assertEquals(1, notIssued.code(), notIssued.out());
            assertTrue(notIssued.err().contains("NOT_FOUND"), notIssued.err());
            Run put = Run.of("flight", "put", server.uri(), fetched.toString(), "--name", "put-back");
            assertEquals(0, put.code(), put.err());
            assertTrue(put.out().startsWith("stream put-back ticket "), put.out());
            String putTicket = put.out().strip().substring("stream put-back ticket ".length());
            Run listed = Run.of("flight", "list", server.uri());
            assertTrue(listed.out().contains("stream put-back ticket " + putTicket), listed.out());
            Run get = Run.of("flight", "get", server.uri(), putTicket, "--output", again.toString());
            assertEquals(0, get.code(), get.err());
            assertTrue(get.out().startsWith("received 4 batches, 1000 rows"), get.out());
        }
        assertGenerated(again);
    }

    @Test
    void aStreamThatBreaksOffLeavesNoFileAndOneLine(@TempDir Path directory) throws Exception {
        Path output = directory.resolve("partial.arrow");
        Run get;
        try (ServeProcess server = ServeProcess.start(1, Map.of(), "--generate", "40000000", "--batches", "400", "--device", "cpu")) {
            String ticket = server.ticket("generated");
            // the server dies while the client is receiving: killed from another thread once the fetch runs
            Thread killer = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(1500);
                    server.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            get = Run.of("flight", "get", server.uri(), ticket, "--output", output.toString());
            killer.join();
        }
        assertEquals(1, get.code(), get.out() + get.err());
        assertFalse(Files.exists(output), "no file from a stream that broke off");
        try (var left = Files.list(directory)) {
            assertEquals(java.util.List.of(), left.toList(), "no temporary file left");
        }
        String message = get.err().strip();
        assertEquals(1, message.lines().count(), "one line: " + message);
        assertTrue(message.contains("nothing was written to " + output), message);
        assertFalse(message.contains("\tat "), message);
    }

    @Test
    void allEndpointsOfAStreamAreFetchedAtOnce(@TempDir Path directory) throws Exception {
        Path fetched = directory.resolve("endpoints.arrow");
        try (ServeProcess server = ServeProcess.start(1, Map.of(), "--generate", "1000", "--batches", "4", "--endpoints", "4", "--device", "cpu")) {
            Run inOrder = Run.of("flight", "get", server.uri(), "generated", "--all-endpoints", "--output", fetched.toString());
            assertEquals(0, inOrder.code(), inOrder.err());
            assertTrue(inOrder.out().startsWith("received 4 batches, 1000 rows"), inOrder.out());
            assertTrue(inOrder.out().strip().endsWith("from 4 endpoint(s) at once"), inOrder.out());
            Run asTheyCome = Run.of("flight", "get", server.uri(), "generated", "--all-endpoints", "--as-they-come");
            assertEquals(0, asTheyCome.code(), asTheyCome.err());
            assertTrue(asTheyCome.out().startsWith("received 4 batches, 1000 rows"), asTheyCome.out());
            Run unknown = Run.of("flight", "get", server.uri(), "no-such-stream", "--all-endpoints");
            assertEquals(1, unknown.code(), unknown.out());
            assertTrue(unknown.err().contains("NOT_FOUND"), unknown.err());
        }
        assertGenerated(fetched);
        Run alone = Run.of("flight", "get", "grpc+tcp://127.0.0.1:1", "generated", "--as-they-come");
        assertEquals(2, alone.code(), alone.out());
        assertTrue(alone.err().contains("--as-they-come needs --all-endpoints"), alone.err());
    }

    @Test
    void aServerThatCompressesIsFetchedValueForValue(@TempDir Path directory) throws Exception {
        Path fetched = directory.resolve("compressed.arrow");
        Path again = directory.resolve("put-compressed.arrow");
        try (ServeProcess server = ServeProcess.start(1, Map.of(), "--generate", "1000", "--batches", "4", "--device", "cpu", "--compression", "zstd")) {
            Run get = Run.of("flight", "get", server.uri(), server.ticket("generated"), "--output", fetched.toString());
            assertEquals(0, get.code(), get.err());
            assertTrue(get.out().startsWith("received 4 batches, 1000 rows"), get.out());
            Run put = Run.of("flight", "put", server.uri(), fetched.toString(), "--name", "put-compressed", "--compression", "lz4");
            assertEquals(0, put.code(), put.err());
            String putTicket = put.out().strip().substring("stream put-compressed ticket ".length());
            Run back = Run.of("flight", "get", server.uri(), putTicket, "--output", again.toString());
            assertEquals(0, back.code(), back.err());
            Run badPut = Run.of("flight", "put", server.uri(), fetched.toString(), "--compression", "gzip");
            assertEquals(2, badPut.code(), badPut.out());
            assertTrue(badPut.err().contains("--compression is none, lz4 or zstd, not gzip"), badPut.err());
        }
        assertGenerated(fetched);
        assertGenerated(again);
        Run bad = Run.of("flight", "serve", "--generate", "10", "--port", "0", "--compression", "nope");
        assertEquals(2, bad.code(), bad.out());
        assertTrue(bad.err().contains("--compression is none, lz4 or zstd, not nope"), bad.err());
        assertFalse(bad.err().contains("\tat "), bad.err());
    }

    @Test
    void serveWithNothingToServeIsAUsageError() {
        Run run = Run.of("flight", "serve", "--port", "0");
        assertEquals(2, run.code(), run.out());
        assertTrue(run.err().contains("nothing to serve"), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    @Test
    void aDeviceNameThatFindsNoDeviceIsAUsageErrorOfEachFlightCommand() {
        for (String[] args : new String[][] {
                {"flight", "get", "grpc+tcp://127.0.0.1:1", "ticket", "--device", "opencl:9"},
                {"flight", "serve", "--generate", "10", "--port", "0", "--device", "tpu"},
                {"flight", "serve", "--generate", "10", "--port", "0", "--put-device", "opencl:x"}}) {
            Run run = Run.of(args);
            assertEquals(2, run.code(), String.join(" ", args) + ": " + run.out() + run.err());
            String option = args[args.length - 2];
            assertTrue(run.err().startsWith(option + " " + args[args.length - 1] + ": "), run.err());
            assertFalse(run.err().contains("\tat "), run.err());
        }
    }

    private static void assertGenerated(Path file) throws Exception {
        try (BufferAllocator allocator = new RootAllocator()) {
            try (DeviceArrayStream read = ArrowIpcReading.file(file, allocator)) {
                for (int b = 0; b < GENERATED.batches(); b++) {
                    try (DeviceArray batch = read.next(); DeviceArray expected = GENERATED.batch(b)) {
                        assertEquals(ArrayReader.of(expected).values(), ArrayReader.of(batch).values(), "batch " + b + " of " + file.getFileName());
                    }
                }
                assertFalse(read.hasNext());
            }
            assertEquals(0, allocator.getAllocatedMemory());
        }
    }

    /** A {@code quiver} command run in this JVM, its output captured (tests using it do not run concurrently). */
    private record Run(int code, String out, String err) {
        static Run of(String... args) {
            PrintStream savedOut = System.out;
            PrintStream savedErr = System.err;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                System.setOut(o);
                System.setErr(e);
                int code = dev.quiver.cli.Quiver.run(args);
                return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
            } finally {
                System.setOut(savedOut);
                System.setErr(savedErr);
            }
        }
    }
}
