package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.stream.DeviceArrayStream;

import java.util.List;

/** The test streams and their checks, for the tests of other packages (Arrow IPC, the command line). */
public final class TestStreams {
    private TestStreams() {}

    /**
     * @param device where the batches are
     * @return the every-type stream, owned by the caller
     */
    public static DeviceArrayStream everyType(Device device) {
        return CountingSource.stream(EveryTypeBatches.schema(), EveryTypeBatches.ROWS.size(), b -> EveryTypeBatches.batch(b).toDeviceArray(), device);
    }

    /** @return the number of batches of the every-type stream */
    public static long everyTypeBatches() {
        return EveryTypeBatches.ROWS.size();
    }

    /**
     * Reads an every-type stream to its end and compares every value.
     *
     * @param stream the stream
     * @param device where its batches should be
     */
    public static void assertEveryType(DeviceArrayStream stream, Device device) {
        EveryTypeTest.assertBatchesAreTheCatalogue(stream, device);
    }

    /**
     * @param device   where the batches are
     * @param changing whether the dictionaries change between batches
     * @return a dictionary stream, owned by the caller
     */
    public static DeviceArrayStream dictionaries(Device device, boolean changing) {
        return CountingSource.stream(DictionaryBatches.schema(), DictionaryBatches.BATCHES, b -> DictionaryBatches.batch(b, changing).toDeviceArray(), device);
    }

    /** @return the number of batches of a dictionary stream */
    public static long dictionaryBatches() {
        return DictionaryBatches.BATCHES;
    }

    /**
     * @param batch    a batch index
     * @param changing which dictionary stream
     * @return the values of its {@code colour} column
     */
    public static List<Object> colours(int batch, boolean changing) {
        return DictionaryBatches.colours(batch, changing);
    }
}
