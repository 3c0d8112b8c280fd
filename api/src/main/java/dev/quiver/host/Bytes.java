package dev.quiver.host;

import java.io.ByteArrayOutputStream;

/** A growable little-endian byte buffer for encoding. Not thread-safe. */
final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    void int8(long v) {
        out.write((int) v);
    }

    void int16(long v) {
        int8(v);
        int8(v >> 8);
    }

    void int32(long v) {
        int16(v);
        int16(v >> 16);
    }

    void int64(long v) {
        int32(v);
        int32(v >> 32);
    }

    void bytes(byte[] b) {
        out.writeBytes(b);
    }

    void integer(long v, int bitWidth) {
        switch (bitWidth) {
            case 8 -> int8(v);
            case 16 -> int16(v);
            case 32 -> int32(v);
            default -> int64(v);
        }
    }

    int size() {
        return out.size();
    }

    byte[] toArray() {
        return out.toByteArray();
    }
}
