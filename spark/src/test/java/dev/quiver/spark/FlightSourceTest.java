package dev.quiver.spark;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spark in local mode (4 task threads) reads a Quiver Flight stream of 4 endpoints as 4 partitions, value for value,
 * and writes a DataFrame back as one put per partition; afterwards nothing is held: no Arrow memory of the readers
 * and writers, no Quiver export unreleased, the server's allocator empty.
 */
class FlightSourceTest {
    static final int ENDPOINTS = 4;
    private final SparkSession spark = LocalSpark.session();
    private BufferAllocator allocator;
    private DeviceFlightProducer producer;
    private DeviceFlightServer server;
    private long exportsBefore;

    @BeforeEach
    void serve() throws Exception {
        exportsBefore = Diagnostics.liveExports();
        allocator = new RootAllocator();
        producer = new DeviceFlightProducer(allocator, Devices.system().cpu());
        server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
        producer.serve("numbers", Rows.schema(), (long) ENDPOINTS * Rows.ROWS_PER_ENDPOINT, Rows.endpoints(ENDPOINTS));
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        // the producer keeps every put, to serve it back, until it is closed: only then are those batches released
        producer.close();
        Eventually.holds("every batch released", () -> allocator.getAllocatedMemory() == 0 && SparkAllocators.allocatedBytes() == 0
                && Diagnostics.liveExports() == exportsBefore, () -> "server " + allocator.getAllocatedMemory() + " B, readers and writers "
                + SparkAllocators.allocatedBytes() + " B, exports " + Diagnostics.liveExports() + " (before: " + exportsBefore + ")");
        allocator.close();
    }

    String location() {
        return "grpc+tcp://127.0.0.1:" + server.getPort();
    }

    @Test
    void everyEndpointIsAPartitionAndEveryValueIsTheSources() {
        Dataset<Row> numbers = spark.read().format("quiver-flight").option("location", location()).option("path", "numbers").load();
        assertEquals("struct<id:bigint,x:double,s:string>", numbers.schema().simpleString());
        assertEquals(ENDPOINTS, numbers.rdd().getNumPartitions());
        assertTrue(numbers.queryExecution().executedPlan().toString().contains("ColumnarToRow"), "read in columns: "
                + numbers.queryExecution().executedPlan());
        assertNull(Rows.wrong(numbers.collectAsList(), ENDPOINTS * Rows.ROWS_PER_ENDPOINT));
        assertEquals(ENDPOINTS * Rows.ROWS_PER_ENDPOINT / 7 + 1, numbers.filter("s is null").count(), "nulls are nulls");
        assertEquals((long) ENDPOINTS * Rows.ROWS_PER_ENDPOINT * (ENDPOINTS * Rows.ROWS_PER_ENDPOINT - 1) / 2,
                numbers.agg(org.apache.spark.sql.functions.sum("id")).first().getLong(0));
    }

    @Test
    void aDataFrameIsPutOnePartitionAtATime() throws Exception {
        Dataset<Row> numbers = spark.read().format("quiver-flight").option("location", location()).option("path", "numbers").load();
        numbers.write().format("quiver-flight").mode("append").option("location", location()).option("path", "copy")
                .option("batchRows", "1000").save();
        List<Row> received = new ArrayList<>();
        try (BufferAllocator client = new RootAllocator();
             DeviceFlightClient flight = DeviceFlightClient.builder(Location.forGrpcInsecure("127.0.0.1", server.getPort()), client).build()) {
            for (int p = 0; p < ENDPOINTS; p++) {
                FlightInfo info = flight.info("copy/part-" + p);
                try (DeviceArrayStream stream = flight.get(info.getEndpoints().getFirst().getTicket(), Devices.system().cpu())) {
                    int batches = 0;
                    while (stream.hasNext()) {
                        try (DeviceArray batch = stream.next()) {
                            assertEquals(1000, batch.length(), "batchRows rows to a batch");
                            received.addAll(Rows.of(batch));
                        }
                        batches++;
                    }
                    assertEquals(Rows.ROWS_PER_ENDPOINT / 1000, batches, "part " + p);
                }
            }
        }
        assertNull(Rows.wrong(received, ENDPOINTS * Rows.ROWS_PER_ENDPOINT));
    }

    @Test
    void optionsThatAreMissingOrWrongAreNamed() {
        assertMessage("needs the option location", () -> spark.read().format("quiver-flight").option("path", "numbers").load());
        assertMessage("needs the option path (the stream's name) or command",
                () -> spark.read().format("quiver-flight").option("location", location()).load());
        assertMessage("option location nowhere:1 is not a Flight location",
                () -> spark.read().format("quiver-flight").option("location", "nowhere:1").option("path", "numbers").load());
        assertMessage("the server refused to describe " + location() + " absent: NOT_FOUND",
                () -> spark.read().format("quiver-flight").option("location", location()).option("path", "absent").load());
        assertMessage("option user ann needs the option password", () -> spark.read().format("quiver-flight")
                .option("location", location()).option("path", "numbers").option("user", "ann").load());
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable call) {
        Throwable thrown = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, call);
        StringBuilder messages = new StringBuilder();
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append(" | ");
        }
        assertTrue(messages.toString().contains(expected), messages.toString());
    }
}
