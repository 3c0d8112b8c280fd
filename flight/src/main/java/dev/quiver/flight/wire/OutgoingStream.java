package dev.quiver.flight.wire;

import io.grpc.Drainable;
import io.netty.buffer.Unpooled;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * One FlightData message as gRPC reads it: the protobuf prefix (descriptor, data_header, app_metadata and the
 * data_body's tag and length, a small heap array) and then the body, each buffer of the batch followed by
 * zero padding to a multiple of 8.
 *
 * <p><b>Copies.</b> {@link #drainTo} into gRPC's buffer chain (see {@link GrpcBufferChain}) hands the
 * batch's buffers to netty as they lie: no body byte is copied by the JVM; the kernel's send copies them
 * once into the socket (TLS encrypts from them instead). Into any other stream, and through {@link #read},
 * each body byte is copied once, through a chunk of at most {@value #CHUNK} bytes. Both are counted in
 * {@link WireCounters}. The stream deliberately does not implement {@code io.grpc.KnownLength}: gRPC copies a
 * known-length message into buffers it allocates.
 *
 * <p><b>Ownership.</b> The stream holds one reference on the batch's memory ({@code memory}); each buffer
 * handed to netty holds another, let go when netty has written it. {@link #close()} lets go of the stream's
 * own (gRPC closes the stream after framing it). <b>Threading.</b> One thread at a time, as any InputStream;
 * netty's releases come from its event loop.
 */
final class OutgoingStream extends InputStream implements Drainable {
    /** Bytes copied at a time on the copying path. */
    static final int CHUNK = 64 * 1024;
    private static final byte[] ZEROS = new byte[8];

    private final byte[] prefix;
    private final List<MemorySegment> buffers;
    private final List<Long> offsets;
    private final long bodyLength;
    private final SharedRelease memory;
    private final long total;
    private long position;
    private boolean closed;

    /**
     * @param prefix     the protobuf bytes before the body's bytes
     * @param buffers    the body's buffers, in order
     * @param offsets    each buffer's offset in the body
     * @param bodyLength the body's length, padding included
     * @param memory     keeps the buffers alive; this stream takes over one reference
     */
    OutgoingStream(byte[] prefix, List<MemorySegment> buffers, List<Long> offsets, long bodyLength, SharedRelease memory) {
        this.prefix = prefix;
        this.buffers = buffers;
        this.offsets = offsets;
        this.bodyLength = bodyLength;
        this.memory = memory;
        this.total = prefix.length + bodyLength;
    }

    @Override
    public int drainTo(OutputStream target) throws IOException {
        if (position != 0) {
            throw new IOException("a FlightData message is drained from its start only, not after " + position + " bytes were read");
        }
        if (GrpcBufferChain.accepts(target)) {
            drainInPlace(target);
        } else {
            drainCopying(target);
        }
        position = total;
        return Math.toIntExact(total);
    }

    private void drainInPlace(OutputStream chain) {
        GrpcBufferChain.append(chain, Unpooled.wrappedBuffer(prefix));
        long written = 0;
        for (int i = 0; i < buffers.size(); i++) {
            MemorySegment buffer = buffers.get(i);
            written = pad(chain, written, offsets.get(i));
            if (buffer.byteSize() > 0) {
                memory.retain();
                GrpcBufferChain.append(chain, new SegmentByteBuf(buffer, memory::release));
                written += buffer.byteSize();
                WireCounters.sentInPlace(buffer.byteSize());
            }
        }
        pad(chain, written, bodyLength);
    }

    private static long pad(OutputStream chain, long written, long upTo) {
        if (upTo > written) {
            GrpcBufferChain.append(chain, Unpooled.wrappedBuffer(new byte[Math.toIntExact(upTo - written)]));
        }
        return upTo;
    }

    private void drainCopying(OutputStream target) throws IOException {
        target.write(prefix);
        byte[] chunk = new byte[(int) Math.min(CHUNK, Math.max(8, bodyLength))];
        long written = 0;
        for (int i = 0; i < buffers.size(); i++) {
            written = zeros(target, written, offsets.get(i));
            MemorySegment buffer = buffers.get(i);
            for (long at = 0; at < buffer.byteSize(); at += chunk.length) {
                int n = (int) Math.min(chunk.length, buffer.byteSize() - at);
                MemorySegment.copy(buffer, JAVA_BYTE, at, chunk, 0, n);
                target.write(chunk, 0, n);
            }
            written += buffer.byteSize();
            WireCounters.sentCopied(buffer.byteSize());
        }
        zeros(target, written, bodyLength);
    }

    private static long zeros(OutputStream target, long written, long upTo) throws IOException {
        for (long at = written; at < upTo; at += ZEROS.length) {
            target.write(ZEROS, 0, (int) Math.min(ZEROS.length, upTo - at));
        }
        return Math.max(written, upTo);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (closed) {
            throw new IOException("the FlightData message stream is closed");
        }
        if (length == 0) {
            return 0;
        }
        if (position >= total) {
            return -1;
        }
        int n = (int) Math.min(length, total - position);
        for (int done = 0; done < n; ) {
            done += readAt(position + done, into, offset + done, n - done);
        }
        position += n;
        return n;
    }

    /** Copies bytes from message position {@code at}, up to the end of the part it falls in; returns how many. */
    private int readAt(long at, byte[] into, int offset, int length) {
        if (at < prefix.length) {
            int n = (int) Math.min(length, prefix.length - at);
            System.arraycopy(prefix, (int) at, into, offset, n);
            return n;
        }
        long inBody = at - prefix.length;
        for (int i = 0; i < buffers.size(); i++) {
            long start = offsets.get(i);
            long end = start + buffers.get(i).byteSize();
            if (inBody >= start && inBody < end) {
                int n = (int) Math.min(length, end - inBody);
                MemorySegment.copy(buffers.get(i), JAVA_BYTE, inBody - start, into, offset, n);
                WireCounters.sentCopied(n);
                return n;
            }
            if (inBody < start) {
                int n = (int) Math.min(length, start - inBody);
                java.util.Arrays.fill(into, offset, offset + n, (byte) 0);
                return n;
            }
        }
        int n = (int) Math.min(length, bodyLength - inBody);
        java.util.Arrays.fill(into, offset, offset + n, (byte) 0);
        return n;
    }

    @Override
    public int available() {
        return (int) Math.min(Integer.MAX_VALUE, total - position);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            memory.release();
        }
    }
}
