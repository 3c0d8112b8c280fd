package dev.quiver.flight.wire;

import com.google.protobuf.ByteString;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flight.impl.Flight;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Between the Arrow IPC streaming format (what Arrow Java's {@code ArrowStreamWriter} and
 * {@code ArrowStreamReader} speak) and {@code FlightData} messages, with Arrow's own generated protobuf class:
 * each encapsulated message (continuation marker, metadata length, metadata padded to 8, body) is one
 * {@code FlightData} with its metadata as {@code data_header} and its body as {@code data_body}.
 */
final class IpcStreamFrames {
    private IpcStreamFrames() {}

    /** {@return the IPC stream of those FlightData messages, parsed by Arrow's protobuf class, with an end-of-stream marker} */
    static byte[] toIpcStream(List<byte[]> flightData) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] bytes : flightData) {
            Flight.FlightData message = Flight.FlightData.parseFrom(bytes);
            byte[] header = message.getDataHeader().toByteArray();
            int padded = (header.length + 7) & ~7;
            out.writeBytes(littleEndian(-1));
            out.writeBytes(littleEndian(padded));
            out.writeBytes(header);
            out.writeBytes(new byte[padded - header.length]);
            message.getDataBody().writeTo(out);
        }
        out.writeBytes(littleEndian(-1));
        out.writeBytes(littleEndian(0));
        return out.toByteArray();
    }

    /** {@return the FlightData bytes of each message of an IPC stream, built with Arrow's protobuf class} */
    static List<byte[]> toFlightData(InputStream ipcStream) throws IOException {
        DataInputStream in = new DataInputStream(ipcStream);
        List<byte[]> messages = new ArrayList<>();
        while (true) {
            int length = readInt(in);
            if (length == -1) {
                length = readInt(in);
            }
            if (length == 0) {
                return messages;
            }
            byte[] header = in.readNBytes(length);
            long bodyLength = Message.getRootAsMessage(ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN)).bodyLength();
            byte[] body = in.readNBytes((int) bodyLength);
            messages.add(Flight.FlightData.newBuilder().setDataHeader(ByteString.copyFrom(header))
                    .setDataBody(ByteString.copyFrom(body)).build().toByteArray());
        }
    }

    private static int readInt(DataInputStream in) throws IOException {
        return Integer.reverseBytes(in.readInt());
    }

    private static byte[] littleEndian(int value) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }
}
