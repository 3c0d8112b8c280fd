package dev.quiver.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quiver share} in a child JVM and {@code quiver attach} here, two processes for real: the default
 * hands every batch zero-copy, {@code --copy} every batch as a copy; rows shown and validated are the generated
 * ones, and the owner waits for the releases before it exits 0. A missing socket argument and a bad device are
 * usage errors (exit 2), a socket nobody listens at a one-line failure naming it (exit 1), never a stack trace.
 */
class ShareAndAttachTest {

    @Test
    void theDefaultHandsEveryBatchZeroCopyAndTheOwnerExitsOnceReleased() throws Exception {
        try (ShareProcess owner = ShareProcess.start("--generate", "1000", "--batches", "4")) {
            CommandRun attach = CommandRun.of("attach", owner.socket().toString(), "--show", "3", "--validate");
            assertEquals(0, attach.code(), attach.out() + attach.err());
            assertTrue(attach.out().contains("owner process "), attach.out());
            assertTrue(attach.out().contains("schema id int64, value float64, name utf8"), attach.out());
            assertTrue(attach.out().contains("received 4 batches, 1000 rows"), attach.out());
            assertTrue(attach.out().contains("\n4 zero-copy, 0 copied, every value valid"), attach.out());
            assertTrue(attach.out().startsWith("owner process ") && attach.out().contains("id=0  value=0.0  name=row-0\n"
                    + "id=1  value=0.5  name=row-1\nid=2  value=1.0  name=row-2\n"), attach.out());
            assertEquals(0, owner.exitCode(), owner.printed());
            assertTrue(owner.printed().contains("1000 rows in 4 batches, zero-copy from shared memory"), owner.printed());
            assertTrue(owner.printed().matches("(?s).*sent 4 batches, 1000 rows, .* zero-copy, to process \\d+\n"
                    + "process \\d+ released every batch.*"), owner.printed());
            assertFalse(java.nio.file.Files.exists(owner.socket()), "the private socket is removed on exit");
        }
    }

    @Test
    void withCopyEveryBatchArrivesAsACopyAndTwoReceiversAreServed(@TempDir Path directory) throws Exception {
        Path socket = directory.resolve("private").resolve("s.sock");
        try (ShareProcess owner = ShareProcess.start("--socket", socket.toString(), "--copy", "--receivers", "2",
                "--generate", "300", "--batches", "3")) {
            assertEquals(socket.toAbsolutePath(), owner.socket());
            for (int receiver = 0; receiver < 2; receiver++) {
                CommandRun attach = CommandRun.of("attach", socket.toString());
                assertEquals(0, attach.code(), attach.out() + attach.err());
                assertTrue(attach.out().contains("received 3 batches, 300 rows"), attach.out());
                assertTrue(attach.out().contains("\n0 zero-copy, 3 copied\n"), attach.out());
            }
            assertEquals(0, owner.exitCode(), owner.printed());
            assertEquals(2, owner.printed().split("released every batch", -1).length - 1, owner.printed());
            assertTrue(owner.printed().contains("3 batches, copied for each handoff"), owner.printed());
        }
    }

    @Test
    void aReceiverOnADeviceWithoutInterProcessMemoryGetsEveryBatchCopiedOntoIt() throws Exception {
        try (ShareProcess owner = ShareProcess.start("--generate", "1000", "--batches", "2")) {
            CommandRun onOpenCl = CommandRun.of("attach", owner.socket().toString(), "--device", "opencl:0", "--validate");
            assertEquals(0, onOpenCl.code(), onOpenCl.out() + onOpenCl.err());
            assertTrue(onOpenCl.out().contains("received 2 batches, 1000 rows"), onOpenCl.out());
            assertTrue(onOpenCl.out().contains("copied here onto OPENCL:0"), onOpenCl.out());
            assertEquals(0, owner.exitCode(), owner.printed());
        }
    }

    @Test
    void onVulkanAReceiverOnTheDeviceGetsEveryBatchWithNoCopyAndAReceiverOnTheCpuACopy() throws Exception {
        try (ShareProcess owner = ShareProcess.start("--device", "vulkan:0", "--receivers", "2", "--generate", "1000", "--batches", "4")) {
            CommandRun onDevice = CommandRun.of("attach", owner.socket().toString(), "--device", "vulkan:0", "--show", "2", "--validate");
            assertEquals(0, onDevice.code(), onDevice.out() + onDevice.err());
            assertTrue(onDevice.out().contains("received 4 batches, 1000 rows"), onDevice.out());
            assertTrue(onDevice.out().contains("\n4 zero-copy, 0 copied, every value valid"), onDevice.out());
            assertTrue(onDevice.out().contains("id=0  value=0.0  name=row-0\nid=1  value=0.5  name=row-1\n"), onDevice.out());
            CommandRun onHost = CommandRun.of("attach", owner.socket().toString(), "--validate");
            assertEquals(0, onHost.code(), onHost.out() + onHost.err());
            assertTrue(onHost.out().contains("\n0 zero-copy, 4 copied, every value valid"), onHost.out());
            assertEquals(0, owner.exitCode(), owner.printed());
            assertTrue(owner.printed().contains("zero-copy to receivers on it, copied for others"), owner.printed());
            // a receiver on the device may close before its last RELEASED left (the release of Vulkan memory waits for
            // the device's work on it): the owner then says so and lets go of the batch at the disconnect
            assertEquals(2, java.util.regex.Pattern.compile("released every batch|left holding [1-4] of 4 batches; let go of them")
                    .matcher(owner.printed()).results().count(), owner.printed());
        }
    }

    @Test
    void copyWithADeviceIsAUsageError() {
        CommandRun run = CommandRun.of("share", "--device", "vulkan:0", "--copy");
        assertEquals(2, run.code(), run.out() + run.err());
        assertTrue(run.err().startsWith("--copy builds the batches in ordinary host memory"), run.err());
    }

    @Test
    void aMissingSocketArgumentIsAUsageError() {
        CommandRun run = CommandRun.of("attach");
        assertEquals(2, run.code(), run.out() + run.err());
        assertTrue(run.err().contains("SOCKET"), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    @Test
    void aBadDeviceIsAUsageError(@TempDir Path directory) {
        CommandRun run = CommandRun.of("attach", directory.resolve("s.sock").toString(), "--device", "nosuch");
        assertEquals(2, run.code(), run.out() + run.err());
        assertTrue(run.err().startsWith("--device nosuch: no device type nosuch"), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    @Test
    void aSocketNobodyListensAtIsOneLineNamingIt(@TempDir Path directory) {
        Path socket = directory.resolve("nobody.sock");
        CommandRun run = CommandRun.of("attach", socket.toString());
        assertEquals(1, run.code(), run.out() + run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("quiver attach: cannot connect to the owner at " + socket), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    @Test
    void anOwnerThatSaysNothingIsGivenUpOnAfterTheTimeoutInOneLine(@TempDir Path directory) throws Exception {
        Path socket = directory.resolve("silent.sock");
        try (java.nio.channels.ServerSocketChannel silent = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            silent.bind(java.net.UnixDomainSocketAddress.of(socket));
            java.util.concurrent.CompletableFuture<java.nio.channels.SocketChannel> accepted = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return silent.accept();   // accepts, never answers the HELLO
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            CommandRun run = CommandRun.of("attach", "--timeout", "1", socket.toString());
            assertEquals(1, run.code(), run.out() + run.err());
            assertEquals(1, run.err().lines().count(), run.err());
            assertTrue(run.err().contains("the owner sent no WELCOME within 1000 ms (the receiver's handshake bound)"), run.err());
            accepted.get(30, java.util.concurrent.TimeUnit.SECONDS).close();
        }
        CommandRun negative = CommandRun.of("attach", "--timeout", "-1", socket.toString());
        assertEquals(2, negative.code(), negative.out() + negative.err());
        assertTrue(negative.err().startsWith("--timeout needs SECONDS >= 0"), negative.err());
    }

    @Test
    void shareRefusesABatchCountPastTheRows() {
        CommandRun run = CommandRun.of("share", "--generate", "3", "--batches", "4");
        assertEquals(2, run.code(), run.out() + run.err());
        assertTrue(run.err().contains("--batches"), run.err());
    }
}
