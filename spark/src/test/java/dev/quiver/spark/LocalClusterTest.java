package dev.quiver.spark;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Executors in JVMs of their own: Spark's {@code local-cluster[2,1,1024]} (a standalone master and two workers in this
 * JVM, each worker starting an executor JVM from this JVM's class path, as {@code spark.testing} makes it). Each
 * worker finds its devices with the discovery script ({@code quiver devices --spark-resource gpu --type opencl}),
 * each executor gets one, and the tasks get it through {@link SparkDevices}; the executors read a Quiver Flight
 * stream of 4 endpoints served by this JVM. With {@code spark.testing} set, Spark starts the executor JVMs from
 * this JVM's class path and needs no Spark distribution (only a Spark home directory, {@code spark.test.home}, holding an
 * empty {@code assembly/target/scala-2.13/jars} folder, and the Scala version, {@code SPARK_SCALA_VERSION}: the
 * module's surefire configuration gives both).
 */
class LocalClusterTest {
    private static SparkSession spark;

    @BeforeAll
    static void startCluster() throws java.io.IOException {
        System.setProperty("spark.testing", "true");
        // Spark's launcher checks that the jars folder of a built Spark exists under the Spark home; it may be empty.
        java.nio.file.Files.createDirectories(java.nio.file.Path.of(System.getProperty("spark.test.home"), "assembly", "target", "scala-2.13", "jars"));
        String script = DiscoveryScript.path("gpu", "opencl").toString();
        spark = SparkSession.builder().master("local-cluster[2,1,1024]").appName("quiver-spark local-cluster")
                .config("spark.ui.enabled", "false")
                .config("spark.executor.extraJavaOptions", System.getProperty("quiver.spark.executorJvmArgs"))
                .config("spark.worker.resource.gpu.amount", "1")
                .config("spark.worker.resource.gpu.discoveryScript", script)
                .config("spark.executor.resource.gpu.amount", "1")
                .config("spark.executor.resource.gpu.discoveryScript", script)
                .config("spark.task.resource.gpu.amount", "1")
                .getOrCreate();
    }

    @AfterAll
    static void stopCluster() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void eachExecutorJvmGivesItsTasksTheirDevice() {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<String> tasks = sc.parallelize(List.of(1, 2, 3, 4, 5, 6, 7, 8), 8).map(i -> ProcessHandle.current().pid() + " "
                + TaskContext.get().resourcesJMap().get("gpu").addresses()[0] + " "
                + SparkDevices.assigned("gpu", DeviceType.OPENCL).stream().map(Device::toString).collect(Collectors.joining(","))).collect();
        Set<String> jvms = tasks.stream().map(t -> t.split(" ")[0]).collect(Collectors.toSet());
        assertEquals(2, jvms.size(), "two executor JVMs: " + tasks);
        assertFalse(jvms.contains(Long.toString(ProcessHandle.current().pid())), "none is this JVM: " + tasks);
        String opencl = Devices.system().get(DeviceType.OPENCL, 0).toString();
        for (String task : tasks) {
            assertEquals("0 " + opencl, task.substring(task.indexOf(' ') + 1), "each task has address 0, the OpenCL device: " + tasks);
        }
    }

    @Test
    void executorsReadTheEndpointsOfAFlightStream() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, Devices.system().cpu());
             DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start()) {
            producer.serve("numbers", Rows.schema(), -1, Rows.endpoints(4));
            Dataset<Row> numbers = spark.read().format("quiver-flight").option("location", "grpc+tcp://127.0.0.1:" + server.getPort())
                    .option("path", "numbers").load();
            assertEquals(4, numbers.rdd().getNumPartitions());
            assertNull(Rows.wrong(numbers.collectAsList(), 4 * Rows.ROWS_PER_ENDPOINT));
        }
    }
}
