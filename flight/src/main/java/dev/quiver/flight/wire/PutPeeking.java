package dev.quiver.flight.wire;

import io.grpc.MethodDescriptor;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * gRPC's marshaller for the messages of a {@code DoPut}: another marshaller (Arrow Java's) parses each
 * {@code FlightData}, and before it this one looks at the message's {@code data_header} to tell whether it is a
 * RecordBatch or DictionaryBatch, so that {@link SchemaFirstPut} can refuse a put whose first message is one
 * without waiting for a schema. The look reads the fields before the body through gRPC's mark and reset, so the
 * parse that follows reads the same bytes (and keeps its zero-copy path); a stream without mark support, or
 * bytes that are not a readable header, are passed on unlooked-at (the parser and the schema wait judge them).
 *
 * <p><b>Ownership.</b> The parsed message belongs to whoever gRPC hands it to, as with the wrapped marshaller.
 * <b>Threading.</b> Stateless; any thread, as gRPC calls it.
 *
 * @param <Q> the wrapped marshaller's message type
 */
final class PutPeeking<Q> implements MethodDescriptor.Marshaller<PutPeeking.Inbound<Q>> {
    /** The largest {@code data_header} looked at; a larger one is left to the parser. */
    private static final int MAX_HEADER_BYTES = 16 * 1024 * 1024;

    /**
     * One parsed message of a put.
     *
     * @param batch   whether its header is a RecordBatch or a DictionaryBatch
     * @param message the message as the wrapped marshaller parsed it
     * @param <Q>     its type
     */
    record Inbound<Q>(boolean batch, Q message) {
    }

    private final MethodDescriptor.Marshaller<Q> parser;

    /** @param parser parses each message after the look (Arrow Java's {@code DoPut} request marshaller) */
    PutPeeking(MethodDescriptor.Marshaller<Q> parser) {
        this.parser = parser;
    }

    @Override
    public InputStream stream(Inbound<Q> value) {
        return parser.stream(value.message());
    }

    @Override
    public Inbound<Q> parse(InputStream stream) {
        boolean batch = isBatch(stream);
        return new Inbound<>(batch, parser.parse(stream));
    }

    /**
     * @param stream a {@code FlightData} message, left where it was
     * @return true if its {@code data_header} is a RecordBatch or DictionaryBatch
     * @throws UncheckedIOException if the stream cannot be reset after the look
     */
    static boolean isBatch(InputStream stream) {
        if (!stream.markSupported()) {
            return false;
        }
        stream.mark(Integer.MAX_VALUE);
        try {
            return headerIsBatch(stream);
        } finally {
            try {
                stream.reset();
            } catch (IOException e) {
                throw new UncheckedIOException("a put's message could not be read again after looking at its header", e);
            }
        }
    }

    private static boolean headerIsBatch(InputStream stream) {
        try {
            while (true) {
                long tag = varint(stream);
                if (tag < 0 || (tag & 7) != FlightDataFields.LENGTH_DELIMITED) {
                    return false;
                }
                long field = tag >>> 3;
                long length = varint(stream);
                if (length < 0 || field == FlightDataFields.DATA_BODY) {
                    return false;
                }
                if (field == FlightDataFields.DATA_HEADER) {
                    if (length < 8 || length > MAX_HEADER_BYTES) {
                        return false;
                    }
                    byte[] header = stream.readNBytes((int) length);
                    if (header.length < length) {
                        return false;
                    }
                    byte type = Message.getRootAsMessage(ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN)).headerType();
                    return type == MessageHeader.RecordBatch || type == MessageHeader.DictionaryBatch;
                }
                stream.skipNBytes(length);
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** {@return a protobuf varint, or -1 at the end of the stream or for one longer than 10 bytes} */
    private static long varint(InputStream stream) throws IOException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = stream.read();
            if (b < 0) {
                return -1;
            }
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        return -1;
    }
}
