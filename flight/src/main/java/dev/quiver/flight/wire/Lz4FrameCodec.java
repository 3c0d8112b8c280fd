package dev.quiver.flight.wire;

import io.airlift.compress.v3.lz4.Lz4JavaCompressor;
import org.apache.arrow.flatbuf.CompressionType;
import org.apache.commons.codec.digest.XXHash32;
import org.apache.commons.compress.compressors.lz4.FramedLZ4CompressorInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * {@code LZ4_FRAME}: the LZ4 frame format (magic {@code 0x184D2204}). Frames are written here, from memory to
 * memory: a fixed header (independent blocks of at most 4 MiB, no checksums, no content size: all optional in
 * the format), each block compressed by aircompressor's LZ4 block compressor (Java, through
 * {@code sun.misc.Unsafe}) or stored as it is where that is smaller, and the end mark. Frames are read with
 * Apache Commons Compress (pure Java, on heap arrays: the bytes pass through chunks of {@value #CHUNK} bytes),
 * with linked blocks (as Arrow C++ writes them) or independent ones, checksums checked where the frame has them.
 * Only the first frame of a buffer is read, as Arrow's readers do. (Commons Compress also writes frames, but
 * its compressor runs at a few MB/s to a few tens on such buffers.) Stateless; any thread.
 */
final class Lz4FrameCodec implements BufferCodec {
    static final Lz4FrameCodec INSTANCE = new Lz4FrameCodec();
    /** Bytes moved between a segment and Commons Compress at a time. */
    static final int CHUNK = 64 * 1024;
    /** The frames' block size: 4 MiB, the largest the format has. */
    private static final int BLOCK = 4 << 20;
    /** The frames' header: magic, FLG (version 1, independent blocks, no checksums, no content size), BD (4 MiB blocks), HC. */
    private static final byte[] HEADER = header();
    /** A block's size field: little-endian; its high bit marks a block stored as it is. */
    private static final ValueLayout.OfInt BLOCK_SIZE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int UNCOMPRESSED_BLOCK = 0x8000_0000;
    /**
     * One sequence of an LZ4 block (a token, a 2-byte offset, length bytes of 255 each) stands for at most 255
     * bytes per byte it takes, and a frame's headers only add bytes: 256 is a bound no frame can exceed.
     */
    private static final Format FORMAT = new Format("LZ4_FRAME", CompressionType.LZ4_FRAME, 256);

    private Lz4FrameCodec() {}

    private static byte[] header() {
        byte[] descriptor = {0x60, 0x70};
        XXHash32 hash = new XXHash32(0);
        hash.update(descriptor, 0, descriptor.length);
        return new byte[] {0x04, 0x22, 0x4D, 0x18, descriptor[0], descriptor[1], (byte) (hash.getValue() >>> 8)};
    }

    @Override
    public Format format() {
        return FORMAT;
    }

    @Override
    public long maxFrame(int length) {
        Lz4JavaCompressor compressor = new Lz4JavaCompressor();
        long whole = length / BLOCK;
        int rest = (int) (length % BLOCK);
        return HEADER.length + whole * (4 + compressor.maxCompressedLength(BLOCK)) + (rest == 0 ? 0 : 4 + compressor.maxCompressedLength(rest)) + 4;
    }

    /** Writes one frame: the header, each block of at most {@value #BLOCK} bytes compressed (or as it is, where that is smaller), the end mark. */
    @Override
    public long compress(MemorySegment source, MemorySegment target) {
        Lz4JavaCompressor compressor = new Lz4JavaCompressor();
        MemorySegment.copy(HEADER, 0, target, JAVA_BYTE, 0, HEADER.length);
        long at = HEADER.length;
        for (long from = 0; from < source.byteSize(); from += BLOCK) {
            MemorySegment block = source.asSlice(from, Math.min(BLOCK, source.byteSize() - from));
            int written = compressor.compress(block, target.asSlice(at + 4));
            if (written < block.byteSize()) {
                target.set(BLOCK_SIZE, at, written);
            } else {
                target.set(BLOCK_SIZE, at, (int) block.byteSize() | UNCOMPRESSED_BLOCK);
                MemorySegment.copy(block, 0, target, at + 4, block.byteSize());
                written = (int) block.byteSize();
            }
            at += 4 + written;
        }
        target.set(BLOCK_SIZE, at, 0);
        return at + 4;
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
}
