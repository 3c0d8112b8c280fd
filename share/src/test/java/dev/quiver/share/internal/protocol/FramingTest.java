package dev.quiver.share.internal.protocol;

import dev.quiver.share.internal.posix.Memfd;
import dev.quiver.share.internal.posix.UnixSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The framing of docs/SHARING.md as {@link Connection} reads it, ahead of the messages: many messages per read,
 * bodies longer than the read buffer, and descriptors matched to the header whose first byte their read took.
 * Frames are written byte by byte with raw {@code sendmsg} calls, including the ways a peer can get descriptors
 * wrong; every descriptor that arrives is closed (the memory files sent are looked for among the process's open
 * descriptors afterwards).
 */
class FramingTest {
    private Path directory;
    private UnixSocket sender;
    private Connection receiver;

    @BeforeEach
    void connect() throws Exception {
        directory = Files.createTempDirectory("quiver-framing", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (UnixSocket listener = UnixSocket.listen(directory.resolve("s"), 1)) {
            CompletableFuture<UnixSocket> accepted = CompletableFuture.supplyAsync(listener::accept);
            sender = UnixSocket.connect(directory.resolve("s"));
            receiver = new Connection(accepted.get(30, TimeUnit.SECONDS));
        }
    }

    @AfterEach
    void close() throws IOException {
        sender.close();
        receiver.close();
        Files.deleteIfExists(directory.resolve("s"));
        Files.deleteIfExists(directory);
    }

    @Test
    void manyMessagesWrittenAtOnceAreReadInOrderWithTheirOwnDescriptors() {
        int file = Memfd.create("framing", 4096);
        try {
            byte[] first = frame(MessageType.REQUEST, 0, new byte[] {1, 0, 0, 0});
            byte[] second = frame(MessageType.BATCH, 1, new byte[] {2, 2, 2});
            byte[] third = frame(MessageType.END, 0, new byte[0]);
            write(concat(first), new int[0]);
            write(concat(second, third), new int[] {file});   // the descriptor travels with the second header
            Message request = receiver.receive();
            assertEquals(MessageType.REQUEST, request.type());
            assertEquals(0, request.fds().length);
            Message batch = receiver.receive();
            assertEquals(MessageType.BATCH, batch.type());
            assertArrayEquals(new byte[] {2, 2, 2}, batch.body());
            assertEquals(1, batch.fds().length);
            assertEquals(4096, Memfd.size(batch.fds()[0]), "the memory file that was sent");
            batch.closeDescriptors();
            assertEquals(MessageType.END, receiver.receive().type());
            sender.shutdown();
            assertNull(receiver.receive(), "end of stream between messages");
        } finally {
            Memfd.close(file);
        }
    }

    @Test
    void aBodyLongerThanTheReadBufferArrivesWhole() {
        byte[] body = new byte[200_000];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 31);
        }
        CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> write(concat(frame(MessageType.SCHEMA, 0, body),
                frame(MessageType.END, 0, new byte[0])), new int[0]));
        Message schema = receiver.receive();
        assertEquals(MessageType.SCHEMA, schema.type());
        assertArrayEquals(body, schema.body());
        assertEquals(MessageType.END, receiver.receive().type());
        writing.join();
    }

    @Test
    void aHeaderThatDeclaresADescriptorThatDidNotComeIsRefused() {
        write(frame(MessageType.BATCH, 1, new byte[8]), new int[0]);
        ProtocolException e = assertThrows(ProtocolException.class, receiver::receive);
        assertEquals("BATCH header declares 1 descriptor(s); 0 arrived with it", e.getMessage());
    }

    @Test
    void descriptorsThatCameWithABodyAreRefusedAndClosed() {
        int file = Memfd.create("stray", 4096);
        assertEquals(1, openMemoryFiles("stray"), "the memory file is found among the open descriptors");
        byte[] message = frame(MessageType.RELEASED, 0, new byte[16]);
        write(java.util.Arrays.copyOf(message, Connection.HEADER), new int[0]);
        write(java.util.Arrays.copyOfRange(message, Connection.HEADER, message.length), new int[] {file});
        Memfd.close(file);   // the receiver holds its own copy now
        write(frame(MessageType.END, 0, new byte[0]), new int[0]);
        ProtocolException e = assertThrows(ProtocolException.class, () -> {
            receiver.receive();   // the body's bytes may come in the read of their header: the stray is seen at the next header
            receiver.receive();
        });
        assertTrue(e.getMessage().startsWith("1 descriptor(s) arrived inside the body of a message"), e.getMessage());
        assertEquals(0, openMemoryFiles("stray"), "the stray descriptor was closed");
    }

    @Test
    void descriptorsNoHeaderClaimsBeforeTheEndAreRefusedAndClosed() {
        int file = Memfd.create("unclaimed", 4096);
        assertEquals(1, openMemoryFiles("unclaimed"), "the memory file is found among the open descriptors");
        write(frame(MessageType.END, 0, new byte[0]), new int[] {file});
        Memfd.close(file);
        Message end = receiver.receive();
        assertEquals(0, end.fds().length, "END declares none");
        sender.shutdown();
        ProtocolException e = assertThrows(ProtocolException.class, receiver::receive);
        assertTrue(e.getMessage().startsWith("1 descriptor(s) arrived with no message"), e.getMessage());
        assertEquals(0, openMemoryFiles("unclaimed"), "the unclaimed descriptor was closed");
    }

    @Test
    void aConnectionThatEndsInsideAHeaderOrABodyIsRefused() {
        write(java.util.Arrays.copyOf(frame(MessageType.BATCH, 0, new byte[40]), 20), new int[0]);
        sender.shutdown();
        ProtocolException e = assertThrows(ProtocolException.class, receiver::receive);
        assertEquals("the connection ended inside the body of BATCH (12 of 40 bytes)", e.getMessage());
    }

    private static byte[] frame(MessageType type, int fds, byte[] body) {
        byte[] frame = new byte[Connection.HEADER + body.length];
        MemorySegment header = MemorySegment.ofArray(frame);
        header.set(JAVA_INT_UNALIGNED, 0, body.length);
        header.set(JAVA_SHORT_UNALIGNED, 4, (short) type.wire());
        header.set(JAVA_SHORT_UNALIGNED, 6, (short) fds);
        System.arraycopy(body, 0, frame, Connection.HEADER, body.length);
        return frame;
    }

    private static byte[] concat(byte[]... frames) {
        List<Byte> all = new ArrayList<>();
        for (byte[] frame : frames) {
            for (byte b : frame) {
                all.add(b);
            }
        }
        byte[] out = new byte[all.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = all.get(i);
        }
        return out;
    }

    private void write(byte[] bytes, int[] fds) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment native_ = arena.allocate(Math.max(1, bytes.length));
            MemorySegment.copy(MemorySegment.ofArray(bytes), 0, native_, 0, bytes.length);
            sender.send(native_.asSlice(0, bytes.length), fds);
        }
    }

    /** {@return how many descriptors of this process name a memory file called {@code name}} @param name the file's name */
    private static long openMemoryFiles(String name) {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith("/memfd:" + name + " ");
                } catch (IOException closedMeanwhile) {
                    return false;   // the listing's own descriptor, or one another thread closed
                }
            }).count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
