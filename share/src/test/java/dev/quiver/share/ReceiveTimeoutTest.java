package dev.quiver.share;

import dev.quiver.Devices;
import dev.quiver.host.HostVector;
import dev.quiver.share.internal.posix.UnixSocket;
import dev.quiver.share.internal.protocol.Handshake;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReceiveOptions#timeout()}: an owner that is alive but says nothing, in the handshake or in the stream,
 * is given up on with a {@link ShareException.Reason#TIMEOUT} naming it, and the connection is closed, so that the
 * owner lets go; without a timeout the receiver waits as long as the owner lives.
 */
class ReceiveTimeoutTest {
    private static final ReceiveOptions HALF_A_SECOND = ReceiveOptions.defaults().withTimeout(Duration.ofMillis(500));

    @Test
    void anOwnerThatNeverAnswersTheHelloIsGivenUpOn() throws Exception {
        Path directory = Files.createTempDirectory("quiver-silent", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path path = directory.resolve("s");
        try (UnixSocket listener = UnixSocket.listen(path, 1)) {
            CompletableFuture<UnixSocket> accepted = CompletableFuture.supplyAsync(listener::accept);   // accepts, never answers
            long start = System.nanoTime();
            ShareException e = assertThrows(ShareException.class, () -> ShareClient.connect(path, Devices.system().cpu(), HALF_A_SECOND));
            assertEquals(ShareException.Reason.TIMEOUT, e.reason(), e.getMessage());
            assertTrue(e.getMessage().matches("owner process \\d+ \\(uid \\d+\\) at .* sent nothing within the receive timeout.*"), e.getMessage());
            assertTrue(System.nanoTime() - start >= 400_000_000L, "waited for the timeout");
            accepted.get(30, TimeUnit.SECONDS).close();
        } finally {
            Files.deleteIfExists(path);
            Files.deleteIfExists(directory);
        }
    }

    @Test
    void anOwnerSilentInTheStreamIsGivenUpOnAndSeesTheReceiverLeave() throws Exception {
        try (HostileOwner owner = new HostileOwner(new Handshake.Welcome(2, HostileOwner.CPU, 1), HostVector.utf8("s", "x").field(),
                connection -> { })) {
            try (ShareClient client = ShareClient.connect(owner.socket(), Devices.system().cpu(), HALF_A_SECOND)) {
                ShareException e = assertThrows(ShareException.class, client::next);
                assertEquals(ShareException.Reason.TIMEOUT, e.reason(), e.getMessage());
                assertTrue(e.getMessage().contains("sent nothing within the receive timeout"), e.getMessage());
                ShareException again = assertThrows(ShareException.class, client::next, "the failure is sticky");
                assertEquals(ShareException.Reason.TIMEOUT, again.reason());
                assertNull(owner.errorSent(), "the owner read the end of the connection while the client was still open, and no ERROR");
            }
        }
    }

    @Test
    void aTimeoutIsZeroOrAWholeMillisecond() {
        assertThrows(IllegalArgumentException.class, () -> ReceiveOptions.defaults().withTimeout(Duration.ofNanos(10)));
        assertThrows(IllegalArgumentException.class, () -> ReceiveOptions.defaults().withTimeout(Duration.ofSeconds(-1)));
        assertEquals(Duration.ZERO, ReceiveOptions.defaults().timeout(), "no timeout by default");
    }
}
