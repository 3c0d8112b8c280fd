package dev.quiver.flight.wire;

import dev.quiver.flight.FlightCompression;
import org.apache.arrow.flatbuf.CompressionType;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * One codec of Arrow IPC body compression ({@code BodyCompression.codec}), applied to one buffer at a time:
 * the bytes of a buffer in, one compressed frame out, and back. The 8-byte length prefix and the choice to
 * send a buffer uncompressed are the callers' ({@link BodyCompressor}, {@link BodyDecompression}).
 *
 * <p><b>Hostile input.</b> {@link #decompress} reads a frame that a peer chose: it never writes past its
 * target, and refuses (throws) malformed data and data that would decompress to more than the target holds.
 * {@link #maxRatio()} is the most the codec's format can expand one byte to, so that a length prefix that
 * no frame of its size could reach is refused before anything is allocated for it.
 *
 * <p><b>Threading.</b> Stateless; any thread. Neither method keeps a reference to the segments.
 */
sealed interface BufferCodec permits Lz4FrameCodec, ZstdCodec {

    /**
     * What a codec is in the Arrow format.
     *
     * @param name      its name, as errors give it
     * @param arrowType its {@code org.apache.arrow.flatbuf.CompressionType}
     * @param maxRatio  the most uncompressed bytes one byte of a frame of this codec can stand for
     */
    record Format(String name, byte arrowType, long maxRatio) {
    }

    /** {@return what this codec is in the Arrow format} */
    Format format();

    /** {@return the codec's name in the Arrow format, as errors give it} */
    default String name() {
        return format().name();
    }

    /** {@return the codec's {@code org.apache.arrow.flatbuf.CompressionType}} */
    default byte arrowType() {
        return format().arrowType();
    }

    /** {@return the most uncompressed bytes one byte of a frame of this codec can stand for} */
    default long maxRatio() {
        return format().maxRatio();
    }

    /**
     * {@return the size of the target {@link #compress} needs for a buffer of {@code length} bytes}
     * @param length the buffer's bytes, more than 0
     * @throws IllegalArgumentException naming the codec if the buffer is larger than a codec whose Java
     *         implementation works on {@code int} sizes can take (2 GiB less 1 MiB or more)
     */
    default long capacity(long length) {
        if (length > Integer.MAX_VALUE - (1 << 20)) {
            throw new IllegalArgumentException("a buffer of " + length + " bytes is larger than " + name() + " compression takes (2 GiB)");
        }
        return maxFrame((int) length);
    }

    /**
     * {@return the most bytes one frame of a buffer of {@code length} bytes can take}
     * @param length the buffer's bytes, more than 0 and less than 2 GiB less 1 MiB
     */
    long maxFrame(int length);

    /**
     * @param source the buffer's bytes, not empty
     * @param target at least {@link #capacity} bytes
     * @return the bytes of the frame written at the start of {@code target} (the caller sends the buffer as it
     *         is instead when the frame is no smaller)
     */
    long compress(MemorySegment source, MemorySegment target);

    /**
     * @param source one compressed frame as it arrived
     * @param target the uncompressed buffer's memory, of the size the length prefix declares
     * @return the bytes written at the start of {@code target}
     * @throws IOException      if the frame is malformed or would decompress to more than {@code target} holds
     * @throws RuntimeException what the library throws on malformed data (the caller refuses the message)
     */
    long decompress(MemorySegment source, MemorySegment target) throws IOException;

    /**
     * {@return the codec of a sender's choice}
     * @param compression LZ4_FRAME or ZSTD
     * @throws IllegalArgumentException for NONE, which has no codec
     */
    static BufferCodec of(FlightCompression compression) {
        return switch (compression) {
            case LZ4_FRAME -> Lz4FrameCodec.INSTANCE;
            case ZSTD -> ZstdCodec.INSTANCE;
            case NONE -> throw new IllegalArgumentException("FlightCompression.NONE has no codec");
        };
    }

    /**
     * {@return the codec a received header names, or null if Quiver knows none by that number}
     * @param type {@code BodyCompression.codec} as it arrived
     */
    static BufferCodec ofArrow(byte type) {
        return switch (type) {
            case CompressionType.LZ4_FRAME -> Lz4FrameCodec.INSTANCE;
            case CompressionType.ZSTD -> ZstdCodec.INSTANCE;
            default -> null;
        };
    }
}
