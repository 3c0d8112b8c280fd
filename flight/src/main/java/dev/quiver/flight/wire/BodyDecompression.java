package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceBuffer;
import dev.quiver.flight.InvalidFlightDataException;
import org.apache.arrow.flatbuf.BodyCompression;
import org.apache.arrow.flatbuf.BodyCompressionMethod;
import org.apache.arrow.flatbuf.RecordBatch;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * A received body compressed per the Arrow IPC format, made into the body it stands for: every buffer
 * decompressed into one new allocation of host memory, at multiples of 8, with a header of the same shape whose
 * offsets and lengths are the uncompressed ones. The arrays are then built and validated over it as over any
 * body ({@link BatchAssembly}); a view array's variadic sizes are the uncompressed lengths, as the format says.
 *
 * <p><b>Trust boundary.</b> The compressed buffers were checked to lie inside the body that arrived
 * ({@link BatchHeader}); each is then hostile. A buffer of 0 bytes is empty (Arrow C++ may write one so); any
 * other must hold its 8-byte length prefix. The prefix is -1 (the bytes follow as they are), 0 (empty) or the
 * uncompressed length. Before anything is allocated, each length is bounded by what its frame could decompress
 * to at the codec's format maximum ({@link BufferCodec#maxRatio()}), and the total by the decoder's
 * {@code maxUncompressedBytes} (by default {@value #DEFAULT_MAX_UNCOMPRESSED_BYTES}, the largest body one
 * FlightData message can carry uncompressed: compression never lets a peer make the receiver allocate more per
 * message than it could by sending the batch plainly). A frame that is malformed, or decompresses to another
 * length than its prefix declares, is refused. Every refusal names the message, the buffer and the codec, and
 * frees what was allocated and the compressed body.
 *
 * <p><b>Threading.</b> Stateless; any thread.
 */
final class BodyDecompression {
    /** The default bound on the uncompressed bytes of one message's buffers. */
    static final long DEFAULT_MAX_UNCOMPRESSED_BYTES = Integer.MAX_VALUE;

    private BodyDecompression() {}

    /**
     * A decompressed body and its header.
     *
     * @param header the header with the uncompressed offsets and lengths
     * @param body   the decompressed body, owned by the caller; null if the message had no buffers
     */
    record Inflated(BatchHeader header, DeviceBuffer body) {}

    /**
     * @param batch the received header
     * @param what  names the message in errors
     * @return the codec of the body, or null if it is not compressed
     * @throws InvalidFlightDataException if the codec or the method is not one the format defines
     */
    static BufferCodec codec(RecordBatch batch, String what) {
        BodyCompression compression = batch.compression();
        if (compression == null) {
            return null;
        }
        if (compression.method() != BodyCompressionMethod.BUFFER) {
            throw new InvalidFlightDataException(what + ": BodyCompression.method " + compression.method()
                    + " is not BUFFER (" + BodyCompressionMethod.BUFFER + "), the only method the Arrow format defines", null);
        }
        BufferCodec codec = BufferCodec.ofArrow(compression.codec());
        if (codec == null) {
            throw new InvalidFlightDataException(what + ": BodyCompression.codec " + compression.codec()
                    + " is neither LZ4_FRAME (0) nor ZSTD (1)", null);
        }
        return codec;
    }

    /**
     * @param codec  the body's codec
     * @param header the header checked against the compressed body
     * @param body   the compressed body, consumed: freed whatever happens; or null if the message had none
     * @param device the host-accessible device the uncompressed body is allocated on
     * @param limit  the most uncompressed bytes (padding included) the message may declare
     * @param what   names the message in errors
     * @return the uncompressed body and its header
     * @throws InvalidFlightDataException if a buffer breaks a rule above; nothing is kept then
     */
    static Inflated inflate(BufferCodec codec, BatchHeader header, DeviceBuffer body, Device device, long limit, String what) {
        try (DeviceBuffer compressed = body) {
            MemorySegment in = body == null ? MemorySegment.NULL : body.asSegment();
            long[] prefixes = new long[header.bufferLengths().length];
            long[] offsets = new long[prefixes.length];
            long[] lengths = new long[prefixes.length];
            long total = 0;
            for (int i = 0; i < prefixes.length; i++) {
                prefixes[i] = prefix(codec, header, in, i, what);
                lengths[i] = prefixes[i] == BodyCompressor.UNCOMPRESSED ? header.bufferLengths()[i] - 8 : prefixes[i];
                offsets[i] = total;
                total += BodyLayout.padded(lengths[i]);
                if (total > limit) {
                    throw new InvalidFlightDataException(what + ": the " + codec.name() + " buffers up to RecordBatch.buffers[" + i
                            + "] declare " + total + " uncompressed bytes, more than the " + limit + " a message may decompress to", null);
                }
            }
            DeviceBuffer out = device.allocate(Math.max(total, 8), 64);
            try {
                MemorySegment into = out.asSegment();
                for (int i = 0; i < prefixes.length; i++) {
                    if (lengths[i] > 0) {
                        MemorySegment source = in.asSlice(header.bufferOffsets()[i] + 8, header.bufferLengths()[i] - 8);
                        MemorySegment target = into.asSlice(offsets[i], lengths[i]);
                        if (prefixes[i] == BodyCompressor.UNCOMPRESSED) {
                            MemorySegment.copy(source, 0, target, 0, lengths[i]);
                        } else {
                            decompress(codec, source, target, i, what);
                        }
                    }
                }
                return new Inflated(new BatchHeader(header.length(), header.nodeLengths(), header.nodeNulls(), offsets, lengths,
                        header.variadicCounts()), out);
            } catch (RuntimeException | Error e) {
                out.close();
                throw e;
            }
        }
    }

    /** {@return buffer {@code i}'s length prefix, checked: -1, or 0 and more within the codec's ratio} */
    private static long prefix(BufferCodec codec, BatchHeader header, MemorySegment body, int i, String what) {
        long length = header.bufferLengths()[i];
        if (length == 0) {
            return 0;
        }
        if (length < 8) {
            throw new InvalidFlightDataException(what + ": " + codec.name() + " RecordBatch.buffers[" + i + "] is " + length
                    + " bytes, shorter than the 8-byte uncompressed length a compressed buffer starts with", null);
        }
        long prefix = body.get(BodyCompressor.PREFIX, header.bufferOffsets()[i]);
        if (prefix == BodyCompressor.UNCOMPRESSED || prefix == 0) {
            return prefix;
        }
        if (prefix < 0) {
            throw new InvalidFlightDataException(what + ": " + codec.name() + " RecordBatch.buffers[" + i + "] declares an uncompressed length of "
                    + prefix + ": negative, and not the -1 of a buffer sent as it is", null);
        }
        long frame = length - 8;
        if (prefix / codec.maxRatio() > frame) {
            throw new InvalidFlightDataException(what + ": " + codec.name() + " RecordBatch.buffers[" + i + "] declares " + prefix
                    + " uncompressed bytes from " + frame + " compressed, more than " + codec.name() + " can expand to ("
                    + codec.maxRatio() + " per byte): refused as a decompression bomb", null);
        }
        return prefix;
    }

    private static void decompress(BufferCodec codec, MemorySegment source, MemorySegment target, int i, String what) {
        long produced;
        try {
            produced = codec.decompress(source, target);
        } catch (IOException | RuntimeException e) {
            throw new InvalidFlightDataException(what + ": RecordBatch.buffers[" + i + "] is not valid " + codec.name() + " data ("
                    + e.getMessage() + ")", e);
        }
        if (produced != target.byteSize()) {
            throw new InvalidFlightDataException(what + ": " + codec.name() + " RecordBatch.buffers[" + i + "] decompresses to " + produced
                    + " bytes, not the " + target.byteSize() + " its length prefix declares", null);
        }
    }
}
