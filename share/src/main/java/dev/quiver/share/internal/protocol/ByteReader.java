package dev.quiver.share.internal.protocol;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads a received message body, little-endian, checking every read against the bytes there are: a short
 * or malformed body throws {@link ProtocolException} naming the message and what was being read. For one
 * thread.
 */
public final class ByteReader {
    private final ByteBuffer buffer;
    private final String message;

    /**
     * Creates a reader.
     *
     * @param body    the message body
     * @param message the message's name, for errors
     */
    public ByteReader(byte[] body, String message) {
        this.buffer = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        this.message = message;
    }

    private void need(int bytes, String what) {
        if (buffer.remaining() < bytes) {
            throw new ProtocolException(ErrorCode.PROTOCOL, message + " ends at byte " + buffer.position()
                    + " while reading " + what + " (" + bytes + " bytes needed, " + buffer.remaining() + " left)");
        }
    }

    /** {@return a u32 or i32} @param what the field, for errors */
    public int u32(String what) {
        need(4, what);
        return buffer.getInt();
    }

    /** {@return a u64 or i64} @param what the field, for errors */
    public long u64(String what) {
        need(8, what);
        return buffer.getLong();
    }

    /** {@return {@code count} raw bytes} @param count bytes @param what the field, for errors */
    public byte[] bytes(int count, String what) {
        need(count, what);
        byte[] out = new byte[count];
        buffer.get(out);
        return out;
    }

    /**
     * {@return a u32 that must lie in {@code [0, max]}}
     * @param max  the most allowed
     * @param what the field, for errors
     * @throws ProtocolException with {@link ErrorCode#LIMIT} if it is larger (read as unsigned)
     */
    public int count(int max, String what) {
        long value = Integer.toUnsignedLong(u32(what));
        if (value > max) {
            throw new ProtocolException(ErrorCode.LIMIT, message + ": " + what + " is " + value + ", more than the limit " + max);
        }
        return (int) value;
    }

    /** {@return a length-prefixed byte string of at most {@link Limits#MAX_STRING} bytes} @param what the field, for errors */
    public byte[] blob(String what) {
        return bytes(count(Limits.MAX_STRING, what + " length"), what);
    }

    /** {@return a length-prefixed UTF-8 string, checked to be valid UTF-8} @param what the field, for errors */
    public String string(String what) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(blob(what))).toString();
        } catch (CharacterCodingException e) {
            throw new ProtocolException(ErrorCode.PROTOCOL, message + ": " + what + " is not valid UTF-8");
        }
    }

    /**
     * Checks that the whole body was read.
     *
     * @throws ProtocolException naming the bytes left over
     */
    public void end() {
        if (buffer.hasRemaining()) {
            throw new ProtocolException(ErrorCode.PROTOCOL, message + " has " + buffer.remaining()
                    + " bytes after its last field (body of " + buffer.capacity() + ")");
        }
    }
}
