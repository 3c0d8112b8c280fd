package dev.quiver.share.internal.protocol;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Writes a message body, little-endian, into a growing buffer. For one thread. */
public final class ByteWriter {
    private ByteBuffer buffer = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);

    /** Creates an empty writer. */
    public ByteWriter() {}

    private ByteBuffer room(int bytes) {
        if (buffer.remaining() < bytes) {
            ByteBuffer larger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + bytes))
                    .order(ByteOrder.LITTLE_ENDIAN);
            larger.put(buffer.flip());
            buffer = larger;
        }
        return buffer;
    }

    /** {@return this writer} @param value a u32 or i32 */
    public ByteWriter u32(int value) {
        room(4).putInt(value);
        return this;
    }

    /** {@return this writer} @param value a u64 or i64 */
    public ByteWriter u64(long value) {
        room(8).putLong(value);
        return this;
    }

    /** {@return this writer} @param bytes raw bytes */
    public ByteWriter bytes(byte[] bytes) {
        room(bytes.length).put(bytes);
        return this;
    }

    /** {@return this writer} @param bytes a length-prefixed byte string: u32 length, then the bytes */
    public ByteWriter blob(byte[] bytes) {
        return u32(bytes.length).bytes(bytes);
    }

    /** {@return this writer} @param text a length-prefixed UTF-8 string */
    public ByteWriter string(String text) {
        return blob(text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@return the bytes written so far} */
    public byte[] toByteArray() {
        byte[] out = new byte[buffer.position()];
        buffer.get(0, out);
        return out;
    }
}
