package dev.quiver.share.internal.protocol;

import dev.quiver.share.internal.posix.PeerCredentials;
import dev.quiver.share.internal.posix.UnixSocket;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * Messages over a {@link UnixSocket}, framed as docs/SHARING.md says: an 8-byte header (u32 body length,
 * u16 type, u16 descriptor count, little-endian), then the body; descriptors travel with the header.
 *
 * <p><b>Ownership.</b> The connection owns its socket; {@link #close()} closes it once.
 *
 * <p>Reading is buffered: one {@code recvmsg} takes every message the peer has sent so far (up to the buffer),
 * and descriptors are matched to the header they came with by stream position ({@link FrameReader}).
 *
 * <p><b>Threading.</b> {@link #send} from any thread; {@link #receive()} from one thread at a time;
 * {@link #shutdown()} from any thread wakes a blocked {@code receive}.
 */
public final class Connection implements AutoCloseable {
    /** Bytes of the frame header. */
    public static final int HEADER = 8;
    private static final long MAX_KEPT_SEND_BUFFER = 1 << 20;
    private final UnixSocket socket;
    private final Object sendLock = new Object();
    private final FrameReader reader;
    private MemorySegment sendBuffer = Arena.ofAuto().allocate(4096, 8);

    /**
     * Wraps a connected socket.
     *
     * @param socket the socket, owned by the connection from now on
     */
    public Connection(UnixSocket socket) {
        this.socket = socket;
        this.reader = new FrameReader(socket);
    }

    /** {@return who is at the other end} */
    public PeerCredentials peer() {
        return socket.peer();
    }

    /**
     * Sends one message.
     *
     * @param type the type
     * @param body the body, at most {@link Limits#MAX_BODY} bytes
     * @param fds  descriptors to pass with it (the caller keeps its own)
     * @throws dev.quiver.share.internal.posix.SystemCallException if the peer is gone
     */
    public void send(MessageType type, byte[] body, int... fds) {
        send(new MessageType[] {type}, new byte[][] {body}, fds);
    }

    /**
     * Sends several messages with one write, so that the peer is woken once; descriptors may travel with the
     * first only.
     *
     * @param types  the types, in order
     * @param bodies their bodies, each at most {@link Limits#MAX_BODY} bytes
     * @param fds    descriptors to pass with the first message (the caller keeps its own)
     * @throws dev.quiver.share.internal.posix.SystemCallException if the peer is gone
     */
    public void send(MessageType[] types, byte[][] bodies, int... fds) {
        long total = 0;
        for (int i = 0; i < types.length; i++) {
            if (bodies[i].length > Limits.MAX_BODY) {
                throw new ProtocolException(ErrorCode.LIMIT, types[i] + " body of " + bodies[i].length + " bytes is past the limit " + Limits.MAX_BODY);
            }
            total += HEADER + bodies[i].length;
        }
        synchronized (sendLock) {
            if (sendBuffer.byteSize() < total) {
                sendBuffer = Arena.ofAuto().allocate(Math.max(total, sendBuffer.byteSize() * 2), 8);
            }
            MemorySegment message = sendBuffer.asSlice(0, total);
            long at = 0;
            for (int i = 0; i < types.length; i++) {
                message.set(JAVA_INT_UNALIGNED, at, bodies[i].length);
                message.set(JAVA_SHORT_UNALIGNED, at + 4, (short) types[i].wire());
                message.set(JAVA_SHORT_UNALIGNED, at + 6, (short) (i == 0 ? fds.length : 0));
                MemorySegment.copy(bodies[i], 0, message, JAVA_BYTE, at + HEADER, bodies[i].length);
                at += HEADER + bodies[i].length;
            }
            socket.send(message, fds);
            if (sendBuffer.byteSize() > MAX_KEPT_SEND_BUFFER) {
                sendBuffer = Arena.ofAuto().allocate(4096, 8);   // a large body's buffer is not kept for every message after it
            }
        }
    }

    /**
     * Sends ERROR, ignoring a peer that is already gone.
     *
     * @param code   the code
     * @param reason the reason
     */
    public void sendError(ErrorCode code, String reason) {
        try {
            send(MessageType.ERROR, new ErrorMessage(code, reason).encode());
        } catch (RuntimeException gone) {
            // the peer left first: nobody to tell
        }
    }

    /**
     * Reads the next message, waiting for it.
     *
     * @return the message, or null if the peer closed the connection between messages
     * @throws ProtocolException if the connection ends inside a message, the header is malformed or past the
     *                           limits, or descriptors arrive anywhere but with a header (those that arrived
     *                           are closed)
     * @throws dev.quiver.share.internal.posix.SystemCallException if the socket fails
     */
    public Message receive() {
        return receive(() -> { });
    }

    /**
     * Reads the next message; before waiting for bytes that have not arrived, runs {@code beforeWaiting}, so
     * that a caller can send what it held back (batched acknowledgements) only when the peer has nothing more
     * to say for now. Messages already read ahead are returned without a system call.
     *
     * @param beforeWaiting run on this thread each time the call is about to wait for the peer
     * @return the message, or null if the peer closed the connection between messages
     * @throws ProtocolException as {@link #receive()}
     * @throws dev.quiver.share.internal.posix.SystemCallException if the socket fails
     */
    public Message receive(Runnable beforeWaiting) {
        return reader.next(beforeWaiting);
    }

    /**
     * {@return how many reads of the socket {@link #receive()} made so far}: a message it returned came with one of
     * them, so whatever this side sent before the count reached a message's read cannot have caused it. For the
     * receiving thread.
     */
    public long reads() {
        return reader.reads();
    }

    /**
     * Bounds how long {@link #receive()} waits.
     *
     * @param millis the bound in milliseconds; 0 for none
     */
    public void receiveTimeout(long millis) {
        socket.receiveTimeout(millis);
    }

    /** Shuts the socket down: a blocked {@link #receive()} returns, the peer reads end of stream. */
    public void shutdown() {
        socket.shutdown();
    }

    /** Closes the socket; later calls do nothing. */
    @Override
    public void close() {
        socket.close();
    }
}
