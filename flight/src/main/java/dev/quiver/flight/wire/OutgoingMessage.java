package dev.quiver.flight.wire;

import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@code FlightData} message ready to be sent: its header fields, and a body made of buffers of memory
 * the message keeps alive (a batch's own buffers, or a received body), never a copy of them.
 *
 * <p><b>Ownership.</b> Holds one reference on {@code memory} until {@link #stream()} passes it to the stream
 * or {@link #close()} lets go of it. <b>Threading.</b> One thread at a time; {@link #close()} any thread.
 */
final class OutgoingMessage implements FlightMessage {
    private final byte[] descriptor;
    private final byte[] header;
    private final byte[] appMetadata;
    private final List<MemorySegment> buffers;
    private final List<Long> offsets;
    private final long bodyLength;
    private final SharedRelease memory;
    private final AtomicBoolean taken = new AtomicBoolean();

    /**
     * @param descriptor  field 1, or null
     * @param header      field 2, or null
     * @param appMetadata field 3, or null
     * @param buffers     the body's buffers, in order (empty and -1 {@code bodyLength} for no body field)
     * @param offsets     each buffer's offset in the body
     * @param bodyLength  the body's length with padding, or -1 for no body field
     * @param memory      keeps the buffers alive; the message takes over one reference
     * @throws IllegalArgumentException if the message would exceed gRPC's 2 GiB message limit (the reference
     *                                  is let go of then)
     */
    OutgoingMessage(byte[] descriptor, byte[] header, byte[] appMetadata, List<MemorySegment> buffers, List<Long> offsets,
                    long bodyLength, SharedRelease memory) {
        this.descriptor = descriptor;
        this.header = header;
        this.appMetadata = appMetadata;
        this.buffers = List.copyOf(buffers);
        this.offsets = List.copyOf(offsets);
        this.bodyLength = bodyLength;
        this.memory = memory;
        long fixed = 32L + (descriptor == null ? 0 : descriptor.length) + (header == null ? 0 : header.length)
                + (appMetadata == null ? 0 : appMetadata.length);
        if (Math.max(bodyLength, 0) > Integer.MAX_VALUE - fixed) {
            memory.release();
            throw new IllegalArgumentException("a FlightData message with a body of " + bodyLength
                    + " bytes exceeds gRPC's message limit of 2 GiB: send smaller batches");
        }
    }

    /** {@return field 2, the IPC {@code Message} flatbuffer, or null} */
    byte[] header() {
        return header;
    }

    /** {@return the body's length with padding, or -1 if the message has no body field} */
    long bodyLength() {
        return bodyLength;
    }

    /** {@return the bytes of the body's buffers, padding not counted} */
    long bufferBytes() {
        return buffers.stream().mapToLong(MemorySegment::byteSize).sum();
    }

    @Override
    public InputStream stream() {
        if (!taken.compareAndSet(false, true)) {
            throw new IllegalStateException("this FlightData message was already streamed or closed");
        }
        return new OutgoingStream(FlightDataFields.prefix(descriptor, header, appMetadata, bodyLength), buffers, offsets,
                Math.max(bodyLength, 0), memory);
    }

    @Override
    public void close() {
        if (taken.compareAndSet(false, true)) {
            memory.release();
        }
    }
}
