package dev.quiver.spark;

import dev.quiver.Device;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tasks killed in the middle of their partitions (each holding a batch and the batches its fetch landed ahead) release
 * every batch: the readers' Arrow memory returns to zero, no Quiver export stays unreleased, no array is reported
 * leaked, the CPU's memory pool and the server's allocator return to where they were.
 */
class KilledTaskTest {
    /** Counted down by each task once it holds its partition's first row (tasks run in this JVM: local mode). */
    static volatile CountDownLatch started;

    @Test
    void aKilledTaskReleasesEveryBatchItHeld() throws Exception {
        SparkSession spark = LocalSpark.session();
        Device cpu = Devices.system().cpu();
        long exportsBefore = Diagnostics.liveExports();
        long leaksBefore = Diagnostics.leakedArrays();
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, cpu)) {
            long poolBefore = cpu.memoryPool().stats().bytesInUse();
            try (DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start()) {
                producer.serve("numbers", Rows.schema(), -1, Rows.endpoints(FlightSourceTest.ENDPOINTS));
                started = new CountDownLatch(FlightSourceTest.ENDPOINTS);
                JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
                CompletableFuture<Void> job = CompletableFuture.runAsync(() -> {
                    sc.setJobGroup("slow", "tasks that stop in the middle of their partitions", true);
                    spark.read().format("quiver-flight").option("location", "grpc+tcp://127.0.0.1:" + server.getPort())
                            .option("path", "numbers").load().toJavaRDD().foreachPartition(KilledTaskTest::holdFirstRow);
                });
                assertTrue(started.await(60, TimeUnit.SECONDS), "every task holds a row");
                assertTrue(SparkAllocators.allocatedBytes() > 0, "the readers hold batches");
                sc.cancelJobGroup("slow");
                ExecutionException failed = assertThrows(ExecutionException.class, () -> job.get(60, TimeUnit.SECONDS));
                assertTrue(String.valueOf(failed.getCause().getMessage()).contains("cancelled"), failed.getCause().toString());
                Eventually.holds("the killed tasks' batches released", () -> SparkAllocators.allocatedBytes() == 0
                        && Diagnostics.liveExports() == exportsBefore, () -> SparkAllocators.allocatedBytes() + " B held, "
                        + Diagnostics.liveExports() + " exports (before: " + exportsBefore + ")");
            }
            Eventually.holds("the server's and the pool's memory back", () -> allocator.getAllocatedMemory() == 0
                    && cpu.memoryPool().stats().bytesInUse() == poolBefore, () -> "server " + allocator.getAllocatedMemory()
                    + " B, pool " + cpu.memoryPool().stats() + " (before: " + poolBefore + " B in use)");
        }
        System.gc();
        Thread.sleep(200);
        assertEquals(leaksBefore, Diagnostics.leakedArrays(), "arrays reported leaked");
    }

    /** A task that takes its partition's first row and then works until it is killed. */
    private static void holdFirstRow(java.util.Iterator<Row> rows) throws InterruptedException {
        if (rows.hasNext()) {
            rows.next();
        }
        started.countDown();
        Thread.sleep(600_000);
    }
}
