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
    private String message;
    private String group;
    private int index;
    private String inner;
    private int innerIndex;

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

    /**
     * Names the message otherwise in errors from now on, once a field that tells it apart is read
     * ({@code "BATCH 7"} after its {@code batch_id}).
     *
     * @param message the message's name
     */
    public void rename(String message) {
        this.message = message;
    }

    /**
     * Names the element the next fields belong to, so that a field's name in an error reads
     * {@code group[index].field}; the name is built only if there is an error.
     *
     * @param group the repeated group, such as {@code "nodes"}
     * @param index the element
     */
    public void place(String group, int index) {
        this.group = group;
        this.index = index;
        this.inner = null;
    }

    /**
     * Names an element inside an element, {@code group[index].inner[innerIndex].field}.
     *
     * @param inner      the repeated group inside the element named by {@link #place(String, int)}
     * @param innerIndex the element of it
     */
    public void placeInner(String inner, int innerIndex) {
        this.inner = inner;
        this.innerIndex = innerIndex;
    }

    /** Fields from now on are named as they are, outside any group. */
    public void noPlace() {
        this.group = null;
        this.inner = null;
    }

    /** {@return the full name of a field at the current place} @param what the field */
    public String name(String what) {
        if (group == null) {
            return what;
        }
        String at = group + "[" + index + "]" + (inner == null ? "" : "." + inner + "[" + innerIndex + "]");
        return what.isEmpty() ? at : at + "." + what;
    }

    private void need(int bytes, String what) {
        if (buffer.remaining() < bytes) {
            throw new ProtocolException(ErrorCode.PROTOCOL, message + " ends at byte " + buffer.position()
                    + " while reading " + name(what) + " (" + bytes + " bytes needed, " + buffer.remaining() + " left)");
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

    /**
     * Reads a reserved u32, which must be 0.
     *
     * @param what the field, for errors ({@code "reserved"})
     * @throws ProtocolException naming the field and its value if it is not 0
     */
    public void reserved(String what) {
        int value = u32(what);
        if (value != 0) {
            throw new ProtocolException(ErrorCode.PROTOCOL, message + ": " + name(what) + " is " + Integer.toUnsignedString(value)
                    + "; it must be 0");
        }
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
            throw new ProtocolException(ErrorCode.LIMIT, message + ": " + name(what) + " is " + value + ", more than the limit " + max);
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
            throw new ProtocolException(ErrorCode.PROTOCOL, message + ": " + name(what) + " is not valid UTF-8");
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
