package dev.quiver.share;

import dev.quiver.Devices;
import dev.quiver.host.HostVector;
import dev.quiver.share.internal.posix.UnixSocket;
import dev.quiver.share.internal.protocol.Connection;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.Handshake;
import dev.quiver.share.internal.protocol.Message;
import dev.quiver.share.internal.protocol.MessageType;
import dev.quiver.share.internal.protocol.SchemaCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReceiveOptions#timeout()}: an owner that is alive but says nothing, in the handshake or in the stream,
 * is given up on with a {@link ShareException.Reason#TIMEOUT} naming it, and the connection is closed, so that the
 * owner lets go; without a timeout the receiver waits in the stream as long as the owner lives, and in the
 * handshake no longer than {@link ReceiveOptions#handshakeTimeout()} for WELCOME, telling the owner with ERROR.
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
            assertTrue(e.getMessage().matches("gave up on the owner process \\d+ \\(uid \\d+\\) at .*: the owner sent no WELCOME within 500 ms "
                    + "\\(the receiver's handshake bound\\)"), e.getMessage());
            assertTrue(System.nanoTime() - start >= 400_000_000L, "waited for the timeout");
            accepted.get(30, TimeUnit.SECONDS).close();
        } finally {
            Files.deleteIfExists(path);
            Files.deleteIfExists(directory);
        }
    }

    @Test
    void withoutATimeoutTheWaitForWelcomeIsStillBoundedAndTheOwnerIsTold() throws Throwable {
        ReceiveOptions options = ReceiveOptions.defaults().withHandshakeTimeout(Duration.ofMillis(300));
        assertEquals(Duration.ZERO, options.timeout(), "no bound on the stream");
        Message heard = slowOwner(options, false, owner -> {
            ShareException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                    () -> assertThrows(ShareException.class, owner::get));
            assertEquals(ShareException.Reason.TIMEOUT, e.reason(), e.getMessage());
            assertTrue(e.getMessage().endsWith(": the owner sent no WELCOME within 300 ms (the receiver's handshake bound)"), e.getMessage());
        });
        assertEquals(MessageType.ERROR, heard.type());
        assertEquals(ErrorCode.PROTOCOL, ErrorMessage.decode(heard.body()).code());
        assertEquals("the owner sent no WELCOME within 300 ms (the receiver's handshake bound)", ErrorMessage.decode(heard.body()).reason());
    }

    @Test
    void aSchemaThatComesWithTheFirstBatchIsWaitedForAsTheStreamIs() throws Throwable {
        ReceiveOptions options = ReceiveOptions.defaults().withHandshakeTimeout(Duration.ofMillis(300));
        Message heard = slowOwner(options, true, owner -> {
            try (ShareClient client = owner.get()) {
                assertEquals(HostVector.utf8("s", "x").field(), client.schema());
            }
        });
        assertNull(heard, "the receiver closed without an ERROR");
    }

    /** What a test does with the receiver's end, connecting with {@link ThrowingSupplier#get()}. */
    private interface ReceiverUse {
        void run(ThrowingSupplier<ShareClient> connect) throws Throwable;
    }

    /**
     * An owner that answers HELLO with nothing, or with WELCOME and, 600 ms later, SCHEMA.
     *
     * @return the message the owner read after that, or null if the receiver closed
     */
    private static Message slowOwner(ReceiveOptions options, boolean welcome, ReceiverUse use) throws Throwable {
        Path directory = Files.createTempDirectory("quiver-slow", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path path = directory.resolve("s");
        try (UnixSocket listener = UnixSocket.listen(path, 1)) {
            CompletableFuture<Message> ownerHeard = CompletableFuture.supplyAsync(() -> {
                try (Connection owner = new Connection(listener.accept())) {
                    owner.receive();   // HELLO
                    if (welcome) {
                        owner.send(MessageType.WELCOME, new Handshake.Welcome(2, HostileOwner.CPU, 1).encode());
                        Thread.sleep(600);
                        owner.send(MessageType.SCHEMA, SchemaCodec.encode(HostVector.utf8("s", "x").field()));
                    }
                    return owner.receive();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            use.run(() -> ShareClient.connect(path, Devices.system().cpu(), options));
            return ownerHeard.get(30, TimeUnit.SECONDS);
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
        assertEquals(Duration.ofSeconds(10), ReceiveOptions.defaults().handshakeTimeout(), "the handshake is bounded by default");
        assertThrows(IllegalArgumentException.class, () -> ReceiveOptions.defaults().withHandshakeTimeout(Duration.ZERO));
    }
}
