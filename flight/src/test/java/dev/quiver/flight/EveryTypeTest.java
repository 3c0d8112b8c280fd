package dev.quiver.flight;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.host.ArrayReader;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.flight.FlightInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every type of the Arrow Java catalogue through Flight, both ways, against a server in a child JVM: fetched
 * from a server stream on each of the CPU, OpenCL and Vulkan onto each of them, and put from each device to
 * a server that lands it on OpenCL, then fetched back. Each column is compared value by value with the
 * values the server was given.
 */
class EveryTypeTest extends ClientFixture {
    private static final List<String> DEVICES = List.of("cpu", "opencl", "vulkan");

    static Stream<Arguments> sourceAndTarget() {
        return DEVICES.stream().flatMap(source -> DEVICES.stream().map(target -> Arguments.of(source, target)));
    }

    @ParameterizedTest(name = "served from {0}, landed on {1}")
    @MethodSource("sourceAndTarget")
    void everyTypeFetchedOntoTheTarget(String source, String target) {
        Device device = TestServer.device(Devices.system(), target);
        FlightInfo info = client.info("every-type@" + source);
        assertEquals(37, info.getRecords(), "row count in the flight info");
        try (DeviceArrayStream stream = client.get(info.getEndpoints().getFirst().getTicket(), device)) {
            assertEquals(device.type(), stream.deviceType());
            assertBatchesAreTheCatalogue(stream, device);
        }
    }

    @ParameterizedTest(name = "put from {0}")
    @MethodSource("devices")
    void everyTypePutFromTheDeviceLandsOnTheServersDevice(String source) {
        Device device = TestServer.device(Devices.system(), source);
        var ticket = client.put("put-from-" + source, CountingSource.stream(EveryTypeBatches.schema(), EveryTypeBatches.ROWS.size(),
                b -> EveryTypeBatches.batch(b).toDeviceArray(), device));
        assertEquals(37, client.info("put-from-" + source).getRecords(), "row count of what was put");
        Device cpu = Devices.system().cpu();
        try (DeviceArrayStream stream = client.get(ticket, cpu)) {
            assertBatchesAreTheCatalogue(stream, cpu);
        }
    }

    static Stream<String> devices() {
        return DEVICES.stream();
    }

    @Test
    void listingShowsEveryStreamWithItsSchemaAndRows() {
        List<FlightInfo> listed = client.listFlights();
        List<String> names = listed.stream().map(i -> i.getDescriptor().getPath().getFirst()).toList();
        assertEquals(true, names.containsAll(List.of("every-type@cpu", "every-type@opencl", "every-type@vulkan", "big", "many")), names.toString());
        FlightInfo big = listed.get(names.indexOf("big"));
        assertEquals(TestServer.BIG_ROWS, big.getRecords());
        assertEquals("v", big.getSchemaOptional().orElseThrow().getFields().getFirst().getName());
        FlightInfo everyType = listed.get(names.indexOf("every-type@opencl"));
        assertEquals(EveryTypeBatches.columns().size(), everyType.getSchemaOptional().orElseThrow().getFields().size());
    }

    /** Reads the stream's batches, each landed on {@code device}, and compares every column with the catalogue's values. */
    static void assertBatchesAreTheCatalogue(DeviceArrayStream stream, Device device) {
        List<Executable> checks = new ArrayList<>();
        int index = 0;
        while (stream.hasNext()) {
            int batchIndex = index++;
            try (DeviceArray batch = stream.next(); DeviceArray onHost = Copies.toHost(batch)) {
                assertEquals(device.type(), batch.deviceType(), "batch " + batchIndex + " landed on the target");
                assertEquals(EveryTypeBatches.ROWS.get(batchIndex), (int) onHost.length(), "rows of batch " + batchIndex);
                for (int c = 0; c < EveryTypeBatches.columns().size(); c++) {
                    Field column = EveryTypeBatches.columns().get(c);
                    List<Object> actual;
                    try (DeviceArray values = onHost.child(c)) {
                        actual = ArrayReader.of(values).values();
                    }
                    List<Object> expected = EveryTypeBatches.values(column, batchIndex);
                    checks.add(() -> assertEquals(expected, actual, column.name() + " in batch " + batchIndex));
                }
            }
        }
        assertEquals(EveryTypeBatches.ROWS.size(), index, "batches");
        assertFalse(checks.isEmpty());
        assertAll(checks);
    }
}
