package dev.quiver.flight.wire;

import dev.quiver.flight.InvalidFlightDataException;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.MetadataVersion;
import org.apache.arrow.vector.types.pojo.Schema;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The IPC {@code Message} flatbuffer of a received {@code data_header}, read defensively: flatbuffers carry
 * offsets that a hostile peer chooses, so every access that fails (an offset outside the bytes) is a refusal,
 * and a schema's field tree is walked with a bound on depth and on the fields visited before Arrow Java's
 * schema reader, which recurses, sees it (a table may name itself as its own child). Stateless; any thread.
 */
final class HeaderReading {
    /** The deepest nesting of fields accepted. */
    static final int MAX_DEPTH = 64;
    /** The most fields (every level) a schema may have. */
    static final int MAX_FIELDS = 10_000;

    private HeaderReading() {}

    /**
     * @param header field 2 as it arrived
     * @param what   names the message in errors
     * @return the message, its version and header type checked (Schema, DictionaryBatch or RecordBatch, V4 or V5)
     * @throws InvalidFlightDataException if the bytes are not such a message
     */
    static Message message(byte[] header, String what) {
        if (header == null || header.length < 8) {
            throw new InvalidFlightDataException(what + ": FlightData.data_header is " + (header == null ? "absent" : header.length + " bytes")
                    + ", not an IPC Message", null);
        }
        try {
            Message message = Message.getRootAsMessage(ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN));
            short version = message.version();
            if (version != MetadataVersion.V4 && version != MetadataVersion.V5) {
                throw new InvalidFlightDataException(what + ": IPC Message.version is " + version + "; V4 and V5 are read", null);
            }
            byte type = message.headerType();
            if (type != MessageHeader.Schema && type != MessageHeader.DictionaryBatch && type != MessageHeader.RecordBatch) {
                throw new InvalidFlightDataException(what + ": IPC Message.header_type " + type
                        + " is not a Schema, DictionaryBatch or RecordBatch", null);
            }
            if (message.bodyLength() < 0) {
                throw new InvalidFlightDataException(what + ": IPC Message.bodyLength is negative: " + message.bodyLength(), null);
            }
            return message;
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw malformed(what, e);
        }
    }

    /**
     * @param message a message of header type Schema
     * @param what    names the message in errors
     * @return the schema
     * @throws InvalidFlightDataException if the schema is malformed, too deep or too large
     */
    static Schema schema(Message message, String what) {
        try {
            org.apache.arrow.flatbuf.Schema schema = (org.apache.arrow.flatbuf.Schema) message.header(new org.apache.arrow.flatbuf.Schema());
            if (schema == null) {
                throw new InvalidFlightDataException(what + ": IPC Message.header is absent", null);
            }
            int[] visited = {0};
            for (int i = 0; i < schema.fieldsLength(); i++) {
                bound(schema.fields(i), 1, visited, what);
            }
            return Schema.convertSchema(schema);
        } catch (InvalidFlightDataException e) {
            throw e;
        } catch (RuntimeException e) {
            throw malformed(what, e);
        }
    }

    private static void bound(org.apache.arrow.flatbuf.Field field, int depth, int[] visited, String what) {
        if (field == null) {
            throw new InvalidFlightDataException(what + ": a Schema field is absent", null);
        }
        if (depth > MAX_DEPTH) {
            throw new InvalidFlightDataException(what + ": the Schema nests fields deeper than " + MAX_DEPTH, null);
        }
        if (++visited[0] > MAX_FIELDS) {
            throw new InvalidFlightDataException(what + ": the Schema has more than " + MAX_FIELDS + " fields", null);
        }
        for (int i = 0; i < field.childrenLength(); i++) {
            bound(field.children(i), depth + 1, visited, what);
        }
    }

    /**
     * {@return the exception for a flatbuffer that cannot be read}
     * @param what  names the message
     * @param cause what the flatbuffer access threw
     */
    static InvalidFlightDataException malformed(String what, RuntimeException cause) {
        return new InvalidFlightDataException(what + ": FlightData.data_header is not a well-formed IPC Message flatbuffer: " + cause, cause);
    }
}
