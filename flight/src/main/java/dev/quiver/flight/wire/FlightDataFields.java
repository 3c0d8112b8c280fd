package dev.quiver.flight.wire;

import java.io.ByteArrayOutputStream;

/**
 * The protobuf encoding of Flight's {@code FlightData} message, by hand: field 1 {@code flight_descriptor}
 * (a serialized {@code FlightDescriptor}), 2 {@code data_header} (an Arrow IPC {@code Message} flatbuffer),
 * 3 {@code app_metadata}, 1000 {@code data_body} (the IPC body), each length-delimited (wire type 2).
 * Stateless; any thread.
 */
final class FlightDataFields {
    static final int DESCRIPTOR = 1;
    static final int DATA_HEADER = 2;
    static final int APP_METADATA = 3;
    static final int DATA_BODY = 1000;
    static final int LENGTH_DELIMITED = 2;

    private FlightDataFields() {}

    /**
     * The bytes of a message before its body's bytes: the fields given, then the body's tag and length.
     *
     * @param descriptor  field 1, or null
     * @param header      field 2, or null
     * @param appMetadata field 3, or null
     * @param bodyLength  the body's length, or -1 for no body field
     * @return the prefix
     */
    static byte[] prefix(byte[] descriptor, byte[] header, byte[] appMetadata, long bodyLength) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + length(descriptor) + length(header) + length(appMetadata));
        field(out, DESCRIPTOR, descriptor);
        field(out, DATA_HEADER, header);
        field(out, APP_METADATA, appMetadata);
        if (bodyLength >= 0) {
            varint(out, (long) DATA_BODY << 3 | LENGTH_DELIMITED);
            varint(out, bodyLength);
        }
        return out.toByteArray();
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    private static void field(ByteArrayOutputStream out, int number, byte[] bytes) {
        if (bytes != null) {
            varint(out, (long) number << 3 | LENGTH_DELIMITED);
            varint(out, bytes.length);
            out.writeBytes(bytes);
        }
    }

    private static void varint(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) (value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write((int) value);
    }
}
