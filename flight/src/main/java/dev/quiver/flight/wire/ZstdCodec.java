package dev.quiver.flight.wire;

import io.airlift.compress.v3.zstd.ZstdJavaCompressor;
import io.airlift.compress.v3.zstd.ZstdJavaDecompressor;
import org.apache.arrow.flatbuf.CompressionType;

import java.lang.foreign.MemorySegment;

/**
 * {@code ZSTD}: Zstandard frames, with aircompressor's Java implementation (no native library), at its default
 * level. Reads any frame the reference library writes (Arrow C++, Arrow Java through zstd-jni), several
 * concatenated frames too. aircompressor reads and writes memory through {@code sun.misc.Unsafe}, bounds
 * checked by its own code. Stateless; any thread (a compressor and a decompressor per call: they are cheap).
 */
final class ZstdCodec implements BufferCodec {
    static final ZstdCodec INSTANCE = new ZstdCodec();
    /**
     * A Zstandard block stands for at most 128 KiB and takes at least 4 bytes (a 3-byte header and the byte of
     * an RLE block): no frame expands one byte to more than 32768.
     */
    private static final Format FORMAT = new Format("ZSTD", CompressionType.ZSTD, 32_768);

    private ZstdCodec() {}

    @Override
    public Format format() {
        return FORMAT;
    }

    @Override
    public long maxFrame(int length) {
        return new ZstdJavaCompressor().maxCompressedLength(length);
    }

    @Override
    public long compress(MemorySegment source, MemorySegment target) {
        return new ZstdJavaCompressor().compress(source, target);
    }

    @Override
    public long decompress(MemorySegment source, MemorySegment target) {
        return new ZstdJavaDecompressor().decompress(source, target);
    }
}
