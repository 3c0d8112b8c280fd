package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceBuffer;
import dev.quiver.flight.InvalidFlightDataException;
import io.grpc.HasByteBuffer;
import io.grpc.KnownLength;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * Reads one {@code FlightData} message from the stream gRPC hands a marshaller, by hand (see
 * {@link FlightDataFields}): the header fields into small heap arrays, the body straight into one allocation
 * of host memory of {@code device}. Unknown fields are skipped, as protobuf requires.
 *
 * <p><b>Copies.</b> Where the stream exposes its buffers ({@code io.grpc.HasByteBuffer}: gRPC's own stream
 * over netty's receive buffers), each body byte is copied once, from netty's buffer into the allocation, and
 * never through the Java heap. Otherwise each is copied twice, through a heap chunk of at most
 * {@value OutgoingStream#CHUNK} bytes. Counted in {@link WireCounters}.
 *
 * <p><b>Hostile input.</b> Every length is checked before anything is allocated: against what the stream still
 * holds where it knows (gRPC's stream does: the whole message has arrived and is within the channel's maximum
 * message size), and against {@code maxHeaderBytes} for the header fields. A truncated or malformed message
 * is refused with an {@link InvalidFlightDataException} naming the field, and the body allocated for it is
 * freed. Stateless; any thread.
 */
final class FlightDataReader {
    /** The largest field number protobuf allows. */
    static final long MAX_FIELD_NUMBER = (1L << 29) - 1;

    private FlightDataReader() {}

    /**
     * @param in             the message's bytes; read to its end, not closed
     * @param device         a host-accessible device (the CPU, or pinned host memory of a device) the body lands in
     * @param maxHeaderBytes the largest field 1, 2 or 3 accepted
     * @return the message, owned by the caller
     * @throws InvalidFlightDataException if the bytes are not a FlightData message
     */
    static ReceivedMessage read(InputStream in, Device device, int maxHeaderBytes) {
        byte[] descriptor = null;
        byte[] header = null;
        byte[] appMetadata = null;
        DeviceBuffer body = null;
        try {
            for (int first = in.read(); first >= 0; first = in.read()) {
                long tag = varint(first, in, "a field tag");
                long number = tag >>> 3;
                int wireType = (int) (tag & 7);
                if (number < 1 || number > MAX_FIELD_NUMBER) {
                    throw new InvalidFlightDataException("FlightData has a field tag of field number " + Long.toUnsignedString(number)
                            + ", outside protobuf's 1.." + MAX_FIELD_NUMBER, null);
                }
                if (wireType != FlightDataFields.LENGTH_DELIMITED) {
                    skipScalar(in, wireType, number);
                    continue;
                }
                long length = varint(in, "the length of field " + number);
                checkLength(in, length, number);
                if (number == FlightDataFields.DATA_BODY) {
                    if (body != null) {
                        throw new InvalidFlightDataException("FlightData.data_body (field 1000) appears twice", null);
                    }
                    body = readBody(in, length, device);
                } else if (number == FlightDataFields.DESCRIPTOR || number == FlightDataFields.DATA_HEADER
                        || number == FlightDataFields.APP_METADATA) {
                    if (length > maxHeaderBytes) {
                        throw new InvalidFlightDataException("FlightData field " + number + " declares " + length
                                + " bytes, more than the " + maxHeaderBytes + " a header field may have", null);
                    }
                    byte[] bytes = readBytes(in, (int) length, number);
                    switch ((int) number) {
                        case FlightDataFields.DESCRIPTOR -> descriptor = bytes;
                        case FlightDataFields.DATA_HEADER -> header = bytes;
                        default -> appMetadata = bytes;
                    }
                } else {
                    skip(in, length, number);
                }
            }
            return new ReceivedMessage(descriptor, header, appMetadata, body);
        } catch (IOException e) {
            close(body, e);
            throw new InvalidFlightDataException("FlightData message could not be read: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            close(body, e);
            throw e;
        }
    }

    private static void close(DeviceBuffer body, Throwable failure) {
        if (body != null) {
            try {
                body.close();
            } catch (RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
    }

    private static void checkLength(InputStream in, long length, long number) throws IOException {
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw new InvalidFlightDataException("FlightData field " + number + " declares " + Long.toUnsignedString(length)
                    + " bytes, more than a gRPC message can hold", null);
        }
        if (in instanceof KnownLength && length > in.available()) {
            throw new InvalidFlightDataException("FlightData field " + number + " declares " + length + " bytes but only "
                    + in.available() + " arrived: the message is truncated", null);
        }
    }

    private static DeviceBuffer readBody(InputStream in, long length, Device device) throws IOException {
        DeviceBuffer body = device.allocate(length, 64);
        try {
            MemorySegment into = body.asSegment();
            long at = 0;
            if (in instanceof HasByteBuffer buffers && buffers.byteBufferSupported()) {
                ByteBuffer target = into.asByteBuffer();
                while (at < length) {
                    ByteBuffer next = buffers.getByteBuffer();
                    if (next == null || !next.hasRemaining()) {
                        break;
                    }
                    int n = (int) Math.min(next.remaining(), length - at);
                    target.put((int) at, next, next.position(), n);
                    skipExactly(in, n);
                    at += n;
                }
            }
            byte[] chunk = at < length ? new byte[(int) Math.min(OutgoingStream.CHUNK, length - at)] : null;
            while (at < length) {
                int n = in.read(chunk, 0, (int) Math.min(chunk.length, length - at));
                if (n < 0) {
                    throw new InvalidFlightDataException("FlightData.data_body declares " + length + " bytes but the message ends after "
                            + at + ": it is truncated", null);
                }
                MemorySegment.copy(chunk, 0, into, JAVA_BYTE, at, n);
                WireCounters.receivedThroughHeap(n);
                at += n;
            }
            WireCounters.receivedCopied(length);
            return body;
        } catch (IOException | RuntimeException | Error e) {
            close(body, e);
            throw e;
        }
    }

    private static void skipExactly(InputStream in, long n) throws IOException {
        long left = n;
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                throw new IOException("the stream would not skip the " + left + " bytes it had just exposed");
            }
            left -= skipped;
        }
    }

    private static byte[] readBytes(InputStream in, int length, long number) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length != length) {
            throw new InvalidFlightDataException("FlightData field " + number + " declares " + length + " bytes but the message ends after "
                    + bytes.length + ": it is truncated", null);
        }
        return bytes;
    }

    private static void skip(InputStream in, long length, long number) throws IOException {
        long left = length;
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new InvalidFlightDataException("FlightData field " + number + " is truncated", null);
                }
                skipped = 1;
            }
            left -= skipped;
        }
    }

    private static void skipScalar(InputStream in, int wireType, long number) throws IOException {
        switch (wireType) {
            case 0 -> varint(in, "field " + number);
            case 1 -> skip(in, 8, number);
            case 5 -> skip(in, 4, number);
            default -> throw new InvalidFlightDataException("FlightData field " + number + " has wire type " + wireType
                    + ", which no FlightData field has", null);
        }
    }

    /** Reads a base-128 varint. */
    private static long varint(InputStream in, String what) throws IOException {
        int first = in.read();
        if (first < 0) {
            throw new InvalidFlightDataException("FlightData message ends inside " + what, null);
        }
        return varint(first, in, what);
    }

    /** Reads a base-128 varint whose first byte was read. */
    private static long varint(int first, InputStream in, String what) throws IOException {
        long value = 0;
        int b = first;
        for (int shift = 0; shift < 64; shift += 7) {
            if (shift > 0) {
                b = in.read();
                if (b < 0) {
                    throw new InvalidFlightDataException("FlightData message ends inside " + what, null);
                }
            }
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new InvalidFlightDataException("FlightData message has a varint of more than 10 bytes in " + what, null);
    }
}
