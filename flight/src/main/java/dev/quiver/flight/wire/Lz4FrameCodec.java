package dev.quiver.flight.wire;

import org.apache.arrow.flatbuf.CompressionType;
import org.apache.commons.compress.compressors.lz4.BlockLZ4CompressorOutputStream;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorInputStream;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream.BlockSize;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorOutputStream.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * {@code LZ4_FRAME}: the LZ4 frame format (magic {@code 0x184D2204}), with Apache Commons Compress, pure Java.
 * Frames are written with independent blocks, the smallest block size that holds the buffer (so that a small
 * buffer does not cost a 4 MiB block array) and a content checksum, as Arrow Java writes them; frames are read
 * with linked or independent blocks, checksums checked where the frame has them. Only the first frame of a
 * buffer is read, as Arrow's readers do.
 *
 * <p>The library works on heap arrays: the bytes pass through chunks of {@value #CHUNK} bytes on their way
 * between the segments and the codec. Stateless; any thread.
 */
final class Lz4FrameCodec implements BufferCodec {
    static final Lz4FrameCodec INSTANCE = new Lz4FrameCodec();
    /** Bytes moved between a segment and the codec at a time. */
    static final int CHUNK = 64 * 1024;
    /**
     * One sequence of an LZ4 block (a token, a 2-byte offset, length bytes of 255 each) stands for at most 255
     * bytes per byte it takes, and a frame's headers only add bytes: 256 is a bound no frame can exceed.
     */
    private static final long MAX_RATIO = 256;

    private Lz4FrameCodec() {}

    @Override
    public String name() {
        return "LZ4_FRAME";
    }

    @Override
    public byte arrowType() {
        return CompressionType.LZ4_FRAME;
    }

    @Override
    public long maxRatio() {
        return MAX_RATIO;
    }

    /** The frame is used only when it is smaller than the buffer: the target is the buffer's size. */
    @Override
    public long capacity(long length) {
        return length;
    }

    @Override
    public long compress(MemorySegment source, MemorySegment target) {
        SegmentStreams.Output out = new SegmentStreams.Output(target);
        Parameters parameters = new Parameters(blockSize(source.byteSize()), true, false, false,
                BlockLZ4CompressorOutputStream.createParameterBuilder().tunedForSpeed().build());
        byte[] chunk = new byte[(int) Math.min(CHUNK, source.byteSize())];
        try (FramedLZ4CompressorOutputStream lz4 = new FramedLZ4CompressorOutputStream(out, parameters)) {
            for (long at = 0; at < source.byteSize(); ) {
                int n = (int) Math.min(chunk.length, source.byteSize() - at);
                MemorySegment.copy(source, JAVA_BYTE, at, chunk, 0, n);
                lz4.write(chunk, 0, n);
                at += n;
            }
        } catch (SegmentStreams.Full e) {
            return -1;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("LZ4 frame compression into memory failed", e);
        }
        return out.position();
    }

    @Override
    public long decompress(MemorySegment source, MemorySegment target) throws IOException {
        try (InputStream in = new FramedLZ4CompressorInputStream(new SegmentStreams.Input(source))) {
            long size = target.byteSize();
            byte[] chunk = new byte[(int) Math.max(1, Math.min(CHUNK, size))];
            long at = 0;
            while (at < size) {
                int n = in.read(chunk, 0, (int) Math.min(chunk.length, size - at));
                if (n < 0) {
                    return at;
                }
                MemorySegment.copy(chunk, 0, target, JAVA_BYTE, at, n);
                at += n;
            }
            if (in.read() >= 0) {
                throw new IOException("the frame decompresses to more than " + size + " bytes");
            }
            return at;
        }
    }

    private static BlockSize blockSize(long length) {
        if (length <= 64 << 10) {
            return BlockSize.K64;
        }
        if (length <= 256 << 10) {
            return BlockSize.K256;
        }
        return length <= 1 << 20 ? BlockSize.M1 : BlockSize.M4;
    }
}
