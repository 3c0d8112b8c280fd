package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where the owner listens and who may reach it, and how a session is misused. */
class ShareServerTest {

    @Test
    void theSocketIsOnlyTheUsersAndGoesAwayWithTheServer() throws Exception {
        Path socket;
        try (ShareServer server = ShareServer.bindPrivate()) {
            socket = server.path();
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())));
        }
        assertFalse(Files.exists(socket));
        assertFalse(Files.exists(socket.getParent()));
        ShareException e = assertThrows(ShareException.class, () -> ShareClient.connect(socket));
        assertEquals(ShareException.Reason.SYSTEM, e.reason());
        assertTrue(e.getMessage().startsWith("cannot connect to the owner at " + socket), e.getMessage());
    }

    @Test
    void aDirectoryOthersMayEnterIsRefused() throws Exception {
        Path open = Files.createTempDirectory("quiver-open", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ShareServer.bind(open.resolve("s.sock")));
            assertTrue(e.getMessage().endsWith("must be accessible to its user only; it is rwxr-xr-x"), e.getMessage());
            assertFalse(Files.exists(open.resolve("s.sock")));
        } finally {
            Files.delete(open);
        }
    }

    @Test
    void bindMakesAMissingDirectoryPrivateAndRefusesATakenPathOrOneTooLong() throws Exception {
        Path parent = Files.createTempDirectory("quiver-bind", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path socket = parent.resolve("inner").resolve("s.sock");
        try (ShareServer server = ShareServer.bind(socket)) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())));
            ShareException taken = assertThrows(ShareException.class, () -> ShareServer.bind(socket));
            assertTrue(taken.getMessage().contains("EADDRINUSE"), taken.getMessage());
            assertEquals(server.path(), socket.toAbsolutePath());
        }
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> ShareServer.bind(parent.resolve("inner").resolve("x".repeat(120))));
        assertTrue(tooLong.getMessage().contains("a Unix domain socket path has at most 107"), tooLong.getMessage());
        Files.delete(parent.resolve("inner"));
        Files.delete(parent);
    }

    @Test
    void closingTheServerWakesAnAccept() throws Exception {
        ShareServer server = ShareServer.bindPrivate();
        CompletableFuture<ShareException> accepting = CompletableFuture.supplyAsync(() -> assertThrows(ShareException.class, server::accept));
        Thread.sleep(100);
        server.close();
        assertEquals(ShareException.Reason.SYSTEM, accepting.get(10, TimeUnit.SECONDS).reason());
    }

    @Test
    void aReceiverThatSaysNothingIsRefusedAfterTheHandshakeTimeout() throws Exception {
        try (ShareServer server = ShareServer.bindPrivate().handshakeTimeout(java.time.Duration.ofMillis(200));
             dev.quiver.share.internal.posix.UnixSocket silent = dev.quiver.share.internal.posix.UnixSocket.connect(server.path())) {
            long start = System.nanoTime();
            ShareException e = assertThrows(ShareException.class, server::accept);
            assertTrue(System.nanoTime() - start < 5_000_000_000L);
            assertEquals(ShareException.Reason.PROTOCOL, e.reason());
            assertTrue(e.getMessage().endsWith("the receiver sent no HELLO within 200 ms"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> server.handshakeTimeout(java.time.Duration.ZERO));
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                assertTrue(silent.receive(arena.allocate(4096), new java.util.ArrayList<>()) < 4096,
                        "the owner closed the silent receiver's connection");
            }
        }
    }

    @Test
    void aSessionTakesArraysOfItsSchemaOnlyAndNothingAfterItsEnd() throws Exception {
        try (ShareServer server = ShareServer.bindPrivate()) {
            CompletableFuture<ShareClient> client = CompletableFuture.supplyAsync(() -> ShareClient.connect(server.path()));
            try (ShareSession session = server.accept();
                 DeviceArray ints = HostVector.int32("a", 1, 2).toDeviceArray();
                 DeviceArray strings = HostVector.utf8("a", "x").toDeviceArray()) {
                session.sendSchema(ints.field());
                assertThrows(IllegalStateException.class, () -> session.sendSchema(ints.field()));
                IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> session.send(strings));
                assertTrue(other.getMessage().contains("is not the session's schema"), other.getMessage());
                session.end();
                assertThrows(IllegalStateException.class, () -> session.send(ints));
                try (ShareClient receiver = client.get(10, TimeUnit.SECONDS)) {
                    assertEquals(ints.field(), receiver.schema());
                    assertFalse(receiver.next().isPresent());
                }
                assertEquals(0, session.outstanding());
            }
        }
    }

    @Test
    void aSourceThatFailsMidStreamReachesTheReceiverAsSourceNamingItAfterTheBatchesBefore() throws Exception {
        try (ShareServer server = ShareServer.bindPrivate()) {
            CompletableFuture<RuntimeException> owner = CompletableFuture.supplyAsync(() -> {
                try (ShareSession session = server.accept()) {
                    java.util.Iterator<DeviceArray> failing = new java.util.Iterator<>() {
                        private int made;

                        @Override
                        public boolean hasNext() {
                            return true;
                        }

                        @Override
                        public DeviceArray next() {
                            if (made == 2) {
                                throw new IllegalStateException("disk read failed");
                            }
                            return Batches.table(made++, 10).toDeviceArray();
                        }
                    };
                    RuntimeException thrown = assertThrows(IllegalStateException.class, () -> session.sendAll(failing));
                    try (DeviceArray late = Batches.table(9, 10).toDeviceArray()) {
                        assertThrows(IllegalStateException.class, () -> session.send(late), "nothing after a failure");
                    }
                    session.awaitReleased(java.time.Duration.ofSeconds(30));
                    return thrown;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            try (ShareClient client = ShareClient.connect(server.path())) {
                client.next().orElseThrow().array().close();
                client.next().orElseThrow().array().close();
                ShareException e = assertThrows(ShareException.class, client::next);
                assertEquals(ShareException.Reason.SOURCE, e.reason(), e.getMessage());
                assertTrue(e.getMessage().matches("owner process \\d+ \\(uid \\d+\\) at .* failed: the owner's source of arrays failed after 2 "
                        + "batches: disk read failed"), e.getMessage());
            }
            assertEquals("disk read failed", owner.get(60, TimeUnit.SECONDS).getMessage());
        }
    }
}
