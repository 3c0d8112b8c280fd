package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceBuffer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A batch's body compressed per the Arrow IPC format ({@code BodyCompression} method {@code BUFFER}): each
 * buffer on its own, as an 8-byte little-endian uncompressed length and the codec's frame; a buffer that the
 * codec does not shrink as the length {@code -1} and the buffer's bytes; an empty buffer as the length 0 and
 * nothing else, as Arrow Java writes it.
 *
 * <p><b>Memory.</b> The compressed buffers lie in one allocation of the batch's device, sized for the worst case
 * of each buffer (the codec's {@link BufferCodec#capacity}, at least the buffer's size), and are sent from there
 * as they lie: the message that sends them owns the allocation and frees it once written or closed, so the
 * batch itself need not stay alive. <b>Threading.</b> Stateless; any thread; the batch's buffers must not change
 * while they are compressed.
 */
final class BodyCompressor {
    /** The length prefix of a compressed buffer: little-endian, at a multiple of 8. */
    static final ValueLayout.OfLong PREFIX = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** The length prefix of a buffer sent as it is. */
    static final long UNCOMPRESSED = -1;

    private BodyCompressor() {}

    /**
     * A compressed body: its layout (the uncompressed one's nodes, the compressed buffers) and its memory.
     *
     * @param layout the layout of the compressed body, whose {@link BodyLayout#codec()} is the codec's
     * @param memory the allocation the buffers lie in, owned by the caller
     */
    record Compressed(BodyLayout layout, DeviceBuffer memory) {}

    /**
     * @param layout the body as it lies in memory (not compressed)
     * @param codec  the codec
     * @param device a host-accessible device the compressed body is allocated on
     * @return the compressed body, owned by the caller
     * @throws IllegalArgumentException if a buffer is larger than the codec takes; nothing is kept then
     */
    static Compressed compress(BodyLayout layout, BufferCodec codec, Device device) {
        List<MemorySegment> buffers = layout.buffers();
        long[] capacities = new long[buffers.size()];
        long total = 0;
        for (int i = 0; i < capacities.length; i++) {
            long length = buffers.get(i).byteSize();
            capacities[i] = length == 0 ? 0 : Math.max(length, codec.capacity(length));
            total = Math.addExact(total, 8 + BodyLayout.padded(capacities[i]));
        }
        DeviceBuffer memory = device.allocate(Math.max(total, 8), 64);
        try {
            MemorySegment all = memory.asSegment();
            List<MemorySegment> compressed = new ArrayList<>(buffers.size());
            long at = 0;
            for (int i = 0; i < capacities.length; i++) {
                compressed.add(compressOne(buffers.get(i), codec, all.asSlice(at, 8 + capacities[i])));
                at += 8 + BodyLayout.padded(capacities[i]);
            }
            return new Compressed(layout.compressed(compressed, codec.arrowType()), memory);
        } catch (RuntimeException | Error e) {
            memory.close();
            throw e;
        }
    }

    /** {@return the bytes of one buffer as the body carries it, written at the start of {@code region}} */
    private static MemorySegment compressOne(MemorySegment buffer, BufferCodec codec, MemorySegment region) {
        long length = buffer.byteSize();
        if (length == 0) {
            region.set(PREFIX, 0, 0L);
            return region.asSlice(0, 8);
        }
        long written = codec.compress(buffer, region.asSlice(8));
        if (written < length) {
            region.set(PREFIX, 0, length);
            return region.asSlice(0, 8 + written);
        }
        region.set(PREFIX, 0, UNCOMPRESSED);
        MemorySegment.copy(buffer, 0, region, 8, length);
        return region.asSlice(0, 8 + length);
    }
}
