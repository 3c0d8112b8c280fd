package dev.quiver.flight;

/**
 * How a sender compresses the bodies of a stream's {@code RecordBatch} and {@code DictionaryBatch} messages,
 * per the Arrow IPC format: the header carries {@code BodyCompression} with the codec and the method
 * {@code BUFFER}, and each buffer of the body is compressed on its own, as an 8-byte little-endian uncompressed
 * length followed by the compressed bytes. A buffer that compression does not shrink is sent as it is, with
 * the length {@code -1}, as the format allows. Any Arrow implementation reads either codec (plain Arrow Java
 * with its {@code arrow-compression} module).
 *
 * <p>Compression is the sender's choice alone: a Quiver receiver reads whatever codec the header names, and
 * needs no option. It pays where the link is slower than the codec (see "Compression on the Flight wire" in
 * {@code docs/PERFORMANCE.md}): on loopback or a fast local network it costs more time than it saves.
 */
public enum FlightCompression {
    /** Bodies as they lie in memory, with no {@code BodyCompression}: the default, and the fastest on a fast link. */
    NONE,
    /**
     * The LZ4 frame format ({@code CompressionType.LZ4_FRAME}): fast, a modest ratio. One frame per buffer with
     * independent blocks, compressed with aircompressor's LZ4 (Java); read with Apache Commons Compress whether
     * the blocks are linked (as Arrow C++ writes them) or not.
     */
    LZ4_FRAME,
    /**
     * Zstandard ({@code CompressionType.ZSTD}): a better ratio than LZ4 at a higher cost, one frame per buffer.
     * Written and read with aircompressor's Java implementation (it uses {@code sun.misc.Unsafe}, as netty does;
     * see the README on {@code --sun-misc-unsafe-memory-access}).
     */
    ZSTD
}
