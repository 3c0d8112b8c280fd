package dev.quiver.flight.wire;

import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.DictionaryBatch;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.flight.impl.Flight;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * What the compression tests share: a batch whose columns compress well (repeating int64s and strings, a
 * view column with strings of more than 12 bytes, nulls) beside one that does not (random int64s), and the
 * reading of a compressed message as it lies on the wire: its codec and each buffer's length prefix.
 */
final class CompressedBodies {
    static final int ROWS = 4096;
    static final Field REPEATING = Field.of("repeating", new ArrowType.Int(64, true), false);
    static final Field RANDOM = Field.of("random", new ArrowType.Int(64, true), false);
    static final Field WORDS = Field.of("words", new ArrowType.Utf8(), true);
    static final Field VIEWS = Field.of("views", new ArrowType.Utf8View(), false);

    private CompressedBodies() {}

    /** {@return the values of a column of {@link #batch()}} @param column one of the fields above */
    static List<Object> values(Field column) {
        Random random = new Random(42);
        return IntStream.range(0, ROWS).<Object>mapToObj(i -> switch (column.name()) {
            case "repeating" -> (long) (i % 1000);
            case "random" -> random.nextLong();
            case "words" -> i % 3 == 0 ? null : "word " + (i % 64);
            default -> "a string longer than twelve bytes, number " + (i % 64);
        }).toList();
    }

    /** {@return the columns of {@link #batch()}} */
    static List<Field> columns() {
        return List.of(REPEATING, RANDOM, WORDS, VIEWS);
    }

    /** {@return the batch, on the host} */
    static HostVector batch() {
        return HostVector.struct("", columns().stream().map(c -> HostVector.of(c, values(c))).toArray(HostVector[]::new));
    }

    /**
     * A compressed message as it arrived.
     *
     * @param codec    {@code BodyCompression.codec}, or -1 if the message has none
     * @param prefixes each buffer's 8-byte length prefix, or {@code Long.MIN_VALUE} for a buffer of no bytes
     * @param lengths  each buffer's length in the body, prefix included
     */
    record Wire(byte codec, long[] prefixes, long[] lengths) {
        /** {@return whether some buffer was sent compressed, smaller than it is} */
        boolean someCompressed() {
            for (int i = 0; i < prefixes.length; i++) {
                if (prefixes[i] > 0 && lengths[i] - 8 < prefixes[i]) {
                    return true;
                }
            }
            return false;
        }

        /** {@return how many buffers have that prefix} @param prefix a length prefix */
        long count(long prefix) {
            return java.util.Arrays.stream(prefixes).filter(p -> p == prefix).count();
        }
    }

    /** {@return the codec and prefixes of a FlightData message of a record or dictionary batch} @param flightData its bytes */
    static Wire wire(byte[] flightData) throws IOException {
        Flight.FlightData message = Flight.FlightData.parseFrom(flightData);
        Message header = Message.getRootAsMessage(message.getDataHeader().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN));
        RecordBatch batch = header.headerType() == MessageHeader.DictionaryBatch
                ? ((DictionaryBatch) header.header(new DictionaryBatch())).data()
                : (RecordBatch) header.header(new RecordBatch());
        ByteBuffer body = message.getDataBody().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        List<long[]> buffers = new ArrayList<>();
        Buffer buffer = new Buffer();
        for (int i = 0; i < batch.buffersLength(); i++) {
            batch.buffers(buffer, i);
            buffers.add(new long[] {buffer.length() == 0 ? Long.MIN_VALUE : body.getLong((int) buffer.offset()), buffer.length()});
        }
        return new Wire(batch.compression() == null ? -1 : batch.compression().codec(),
                buffers.stream().mapToLong(b -> b[0]).toArray(), buffers.stream().mapToLong(b -> b[1]).toArray());
    }
}
