package dev.quiver.flight.wire;

import dev.quiver.DeviceBuffer;

import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@code FlightData} message as it arrived: its header fields (small heap arrays) and its body in one
 * allocation of Quiver host memory. Nothing in it is checked yet: {@link FlightDataDecoder} checks the header
 * against the body before it builds anything over it.
 *
 * <p><b>Ownership.</b> The message owns the body until {@link #takeBody()} (the decoder's) or
 * {@link #stream()} (forwarding it) takes it, or {@link #close()} frees it. <b>Threading.</b> One thread at a
 * time; {@link #close()} any thread.
 */
final class ReceivedMessage implements FlightMessage {
    private final byte[] descriptor;
    private final byte[] header;
    private final byte[] appMetadata;
    private final DeviceBuffer body;
    private final AtomicBoolean taken = new AtomicBoolean();

    /**
     * @param descriptor  field 1, or null if absent
     * @param header      field 2, or null if absent
     * @param appMetadata field 3, or null if absent
     * @param body        field 1000 in host-accessible memory, owned by the message from now on; or null if absent
     */
    ReceivedMessage(byte[] descriptor, byte[] header, byte[] appMetadata, DeviceBuffer body) {
        this.descriptor = descriptor;
        this.header = header;
        this.appMetadata = appMetadata;
        this.body = body;
    }

    /** {@return field 1, a serialized {@code FlightDescriptor}, or null} */
    byte[] descriptor() {
        return descriptor;
    }

    /** {@return field 2, the IPC {@code Message} flatbuffer as received, or null} */
    byte[] header() {
        return header;
    }

    /** {@return field 3, or null} */
    byte[] appMetadata() {
        return appMetadata;
    }

    /** {@return the body's length in bytes, 0 if the message has none} */
    long bodyLength() {
        return body == null ? 0 : body.byteSize();
    }

    /**
     * {@return the body, owned by the caller from now on, or null if the message has none}
     * @throws IllegalStateException if the body was taken, streamed or closed before
     */
    DeviceBuffer takeBody() {
        if (!taken.compareAndSet(false, true)) {
            throw new IllegalStateException("the body of this FlightData message was already taken or released");
        }
        return body;
    }

    @Override
    public InputStream stream() {
        DeviceBuffer owned = takeBody();
        MemorySegment bytes = owned == null ? MemorySegment.NULL : owned.asSegment();
        List<MemorySegment> buffers = owned == null ? List.of() : List.of(bytes);
        return new OutgoingStream(FlightDataFields.prefix(descriptor, header, appMetadata, owned == null ? -1 : bytes.byteSize()),
                buffers, owned == null ? List.of() : List.of(0L), bytes.byteSize(), new SharedRelease(owned == null ? () -> { } : owned));
    }

    @Override
    public void close() {
        if (taken.compareAndSet(false, true) && body != null) {
            body.close();
        }
    }
}
