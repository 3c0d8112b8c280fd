package dev.quiver.share.internal.protocol;

import dev.quiver.share.internal.posix.Memfd;
import dev.quiver.share.internal.posix.UnixSocket;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * Splits the bytes of a {@link UnixSocket} into messages (docs/SHARING.md, "Framing"), reading ahead: one
 * {@code recvmsg} takes as many messages as have arrived, up to a 64 KiB buffer.
 *
 * <p>Descriptors are matched to headers by stream position. The kernel hands over the descriptors of a
 * {@code sendmsg} with the read that takes the first byte the sender attached them to, and a sender attaches
 * them to the first byte of a header; so a message's descriptors are those of the read that took the first byte
 * of its header. A header that declares descriptors its read did not bring, and descriptors that no header
 * claims (they came with a body), are protocol errors; the descriptors are closed either way.
 *
 * <p><b>Ownership.</b> The reader owns its buffer (freed when the reader is unreachable) and every descriptor
 * read and not yet handed out in a {@link Message}; it does not own the socket.
 *
 * <p><b>Threading.</b> One thread at a time, as {@link Connection#receive()}.
 */
final class FrameReader {
    private static final int CAPACITY = 64 * 1024;

    /** Descriptors that came with one read, which took the stream's bytes {@code [from, to)}. */
    private static final class Arrival {
        final long from;
        final long to;
        final int[] fds;
        int taken;

        Arrival(long from, long to, int[] fds) {
            this.from = from;
            this.to = to;
            this.fds = fds;
        }

        int left() {
            return fds.length - taken;
        }
    }

    private final UnixSocket socket;
    private final MemorySegment buffer = Arena.ofAuto().allocate(CAPACITY, 8);
    private final Deque<Arrival> arrivals = new ArrayDeque<>();
    private final List<Integer> scratch = new ArrayList<>();
    /** Stream position of {@code buffer[start]}. */
    private long position;
    /** Reads of the socket so far. */
    private long reads;
    private int start;
    private int end;

    FrameReader(UnixSocket socket) {
        this.socket = socket;
    }

    /**
     * Reads the next message.
     *
     * @param beforeWaiting run before each wait for bytes that have not arrived
     * @return the message, or null at end of stream between messages
     */
    Message next(Runnable beforeWaiting) {
        try {
            if (!fill(Connection.HEADER, beforeWaiting)) {
                return null;
            }
            long at = position;
            int length = buffer.get(JAVA_INT_UNALIGNED, start);
            int wireType = Short.toUnsignedInt(buffer.get(JAVA_SHORT_UNALIGNED, start + 4));
            int declared = Short.toUnsignedInt(buffer.get(JAVA_SHORT_UNALIGNED, start + 6));
            MessageType type = MessageType.of(wireType);
            refuseUnclaimed(at);
            int[] fds = take(at, declared, type);
            try {
                if (length < 0 || length > Limits.MAX_BODY) {
                    throw new ProtocolException(ErrorCode.LIMIT, type + " body of " + Integer.toUnsignedString(length)
                            + " bytes is past the limit " + Limits.MAX_BODY);
                }
                consume(Connection.HEADER);
                byte[] body = new byte[length];
                if (length <= CAPACITY) {
                    if (!fill(length, beforeWaiting)) {
                        throw new ProtocolException(ErrorCode.PROTOCOL, "the connection ended inside the body of " + type
                                + " (" + (end - start) + " of " + length + " bytes)");
                    }
                    MemorySegment.copy(buffer, JAVA_BYTE, start, body, 0, length);
                    consume(length);
                } else {
                    readLarge(body, type);
                }
                return new Message(type, body, fds);
            } catch (RuntimeException e) {
                close(fds);
                throw e;
            }
        } catch (RuntimeException e) {
            closeAll();   // a connection in error is not read again
            throw e;
        }
    }

    /** {@return how many reads of the socket were made so far: a message returned now came with one of them} */
    long reads() {
        return reads;
    }

    /** Makes {@code bytes} bytes available at {@code start}; false at end of stream before any of them. */
    private boolean fill(int bytes, Runnable beforeWaiting) {
        while (end - start < bytes) {
            if (CAPACITY - start < bytes) {
                MemorySegment.copy(buffer, start, buffer, 0, end - start);
                end -= start;
                start = 0;
            }
            long read = socket.receiveSome(buffer.asSlice(end, CAPACITY - end), scratch, false);
            if (read < 0) {
                beforeWaiting.run();
                read = socket.receiveSome(buffer.asSlice(end, CAPACITY - end), scratch, true);
            }
            reads++;
            arrived(position + (end - start), read);
            if (read == 0) {
                if (end == start) {
                    refuseUnclaimed(Long.MAX_VALUE);
                    return false;
                }
                if (bytes == Connection.HEADER) {
                    throw new ProtocolException(ErrorCode.PROTOCOL, "the connection ended inside a message header ("
                            + (end - start) + " of 8 bytes)");
                }
                return false;
            }
            end += (int) read;
        }
        return true;
    }

    /** A body past the buffer: what is buffered, then the rest read straight in; nothing may come with it. */
    private void readLarge(byte[] body, MessageType type) {
        int buffered = end - start;
        MemorySegment.copy(buffer, JAVA_BYTE, start, body, 0, buffered);
        consume(buffered);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment rest = arena.allocate(body.length - buffered);
            long got = socket.receive(rest, scratch);
            reads++;
            arrived(position, got);
            position += got;
            refuseUnclaimed(position);
            if (got < rest.byteSize()) {
                throw new ProtocolException(ErrorCode.PROTOCOL, "the connection ended inside the body of " + type
                        + " (" + (buffered + got) + " of " + body.length + " bytes)");
            }
            MemorySegment.copy(rest, JAVA_BYTE, 0, body, buffered, (int) rest.byteSize());
        }
    }

    private void arrived(long from, long read) {
        if (!scratch.isEmpty()) {
            int[] fds = scratch.stream().mapToInt(Integer::intValue).toArray();
            scratch.clear();
            arrivals.addLast(new Arrival(from, from + Math.max(read, 1), fds));
        }
    }

    private void consume(int bytes) {
        start += bytes;
        position += bytes;
        if (start == end) {
            start = 0;
            end = 0;
        }
    }

    /** Descriptors that arrived before {@code at} and that no header claimed came with a body. */
    private void refuseUnclaimed(long at) {
        Arrival first = arrivals.peekFirst();
        if (first != null && first.to <= at) {
            int stray = first.left();
            throw new ProtocolException(ErrorCode.PROTOCOL, stray + " descriptor(s) arrived "
                    + (at == Long.MAX_VALUE ? "with no message" : "inside the body of a message") + " (stream bytes "
                    + first.from + " to " + first.to + "); descriptors travel with the header that declares them");
        }
    }

    private int[] take(long at, int declared, MessageType type) {
        if (declared == 0) {
            return new int[0];
        }
        Arrival first = arrivals.peekFirst();
        int came = first != null && first.from <= at && at < first.to ? first.left() : 0;
        if (came < declared) {
            throw new ProtocolException(ErrorCode.PROTOCOL, type + " header declares " + declared + " descriptor(s); "
                    + came + " arrived with it");
        }
        int[] fds = java.util.Arrays.copyOfRange(first.fds, first.taken, first.taken + declared);
        first.taken += declared;
        if (first.left() == 0) {
            arrivals.removeFirst();
        }
        return fds;
    }

    /** Closes every descriptor not handed out: the connection is in error and will not be read again. */
    private void closeAll() {
        for (Arrival arrival : arrivals) {
            for (int i = arrival.taken; i < arrival.fds.length; i++) {
                Memfd.close(arrival.fds[i]);
            }
        }
        arrivals.clear();
        scratch.forEach(Memfd::close);
        scratch.clear();
    }

    private static void close(int[] fds) {
        for (int fd : fds) {
            Memfd.close(fd);
        }
    }
}
