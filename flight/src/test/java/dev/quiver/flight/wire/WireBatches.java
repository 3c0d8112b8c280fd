package dev.quiver.flight.wire;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.flight.EveryTypeBatches;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.Field;
import org.junit.jupiter.api.function.Executable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The every-type batches of the Flight tests ({@link EveryTypeBatches}), and the helpers the codec's tests share: bytes of messages, and
 * column-by-column comparison.
 */
final class WireBatches {
    /** Rows of each batch: a full one and an empty one. */
    static final List<Integer> ROWS = EveryTypeBatches.ROWS;

    private WireBatches() {}

    static List<Field> columns() {
        return EveryTypeBatches.columns();
    }

    static List<Object> values(Field column, int batch) {
        return EveryTypeBatches.values(column, batch);
    }

    static HostVector batch(int batch) {
        return EveryTypeBatches.batch(batch);
    }

    /** {@return the message's bytes, as gRPC would read them through a plain stream (the codec's copying path)} */
    static byte[] bytes(FlightMessage message) throws IOException {
        try (InputStream in = message.stream()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ((io.grpc.Drainable) in).drainTo(out);
            return out.toByteArray();
        }
    }

    /** {@return the message those bytes hold, read into CPU memory} */
    static ReceivedMessage read(byte[] bytes) {
        return FlightDataReader.read(new ByteArrayInputStream(bytes), Devices.system().cpu(), FlightDataMarshaller.DEFAULT_MAX_HEADER_BYTES);
    }

    /** Adds to {@code checks} a comparison of every column of {@code batch} with the values of catalogue batch {@code index}. */
    static void compare(DeviceArray batch, int index, List<Executable> checks) {
        assertEquals(ROWS.get(index), (int) batch.length(), "rows of batch " + index);
        assertEquals(columns().size(), batch.childCount(), "columns of batch " + index);
        for (int c = 0; c < columns().size(); c++) {
            Field column = columns().get(c);
            List<Object> actual;
            try (DeviceArray values = batch.child(c)) {
                actual = ArrayReader.of(values).values();
            }
            List<Object> expected = values(column, index);
            checks.add(() -> assertEquals(expected, actual, column.name() + " in batch " + index));
        }
    }

    /** Compares every column of each batch with the catalogue's values, all at once. */
    static void assertCatalogue(List<DeviceArray> batches) {
        assertEquals(ROWS.size(), batches.size(), "batches");
        List<Executable> checks = new ArrayList<>();
        for (int b = 0; b < batches.size(); b++) {
            compare(batches.get(b), b, checks);
        }
        assertAll(checks);
    }

    /** Reads the whole stream and compares it with the catalogue, all at once; closes every batch and the stream. */
    static void assertCatalogue(dev.quiver.stream.DeviceArrayStream stream) {
        List<DeviceArray> fetched = new ArrayList<>();
        try (stream) {
            while (stream.hasNext()) {
                fetched.add(stream.next());
            }
            assertCatalogue(fetched);
        } finally {
            fetched.forEach(DeviceArray::close);
        }
    }
}
