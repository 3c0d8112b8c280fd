package dev.quiver.flight.wire;

import java.io.InputStream;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * Java streams over memory segments, for the stream-based decoder of {@link Lz4FrameCodec}: bytes are copied
 * from the segment into the caller's heap arrays, never past the segment's bounds. The streams do not own
 * their segments. <b>Threading.</b> One thread at a time, as any stream.
 */
final class SegmentStreams {
    private SegmentStreams() {}

    /** Reads a segment from its start to its end. */
    static final class Input extends InputStream {
        private final MemorySegment bytes;
        private long position;

        /** @param bytes read, not owned */
        Input(MemorySegment bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read() {
            return position < bytes.byteSize() ? bytes.get(JAVA_BYTE, position++) & 0xFF : -1;
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            java.util.Objects.checkFromIndexSize(offset, length, into.length);
            if (length == 0) {
                return 0;
            }
            long left = bytes.byteSize() - position;
            if (left <= 0) {
                return -1;
            }
            int n = (int) Math.min(length, left);
            MemorySegment.copy(bytes, JAVA_BYTE, position, into, offset, n);
            position += n;
            return n;
        }

        @Override
        public long skip(long n) {
            long skipped = Math.max(0, Math.min(n, bytes.byteSize() - position));
            position += skipped;
            return skipped;
        }

        @Override
        public int available() {
            return (int) Math.min(Integer.MAX_VALUE, bytes.byteSize() - position);
        }
    }
}
