package com.example.sparkkernels;

import com.example.columns.ColumnKernels;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import dev.quiver.host.HostVector;
import dev.quiver.spark.SparkDevices;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * A Spark job whose tasks compute on their devices. A Flight server (here in the same JVM; on a cluster, anywhere)
 * serves a stream of int64 values in 4 endpoints. The driver lists the endpoints and makes one task per endpoint;
 * each task fetches its endpoint straight onto its device, runs the OpenCL kernels of the column-kernels library on
 * each batch there (a sum, and a filter whose result stays on the device), and returns one row of results. Spark
 * gets the rows back as the columns of a DataFrame, and the driver checks every sum against the host's.
 *
 * <p>The task's device is the one Spark assigned it through the resource {@code gpu} ({@link SparkDevices}, with a
 * discovery script such as {@code quiver devices --spark-resource gpu --type opencl}). Spark's local mode assigns no
 * resources, so there each task falls back to the device named by the first argument ({@code opencl:0} by default).
 */
public final class SparkDeviceKernels {
    private static final int ENDPOINTS = 4;
    private static final int BATCHES = 2;
    private static final int ROWS = 100_000;
    private static final long THRESHOLD = 300_000;

    private SparkDeviceKernels() {}

    /**
     * @param args the device of tasks that Spark assigned none, {@code TYPE:ID} (default {@code opencl:0})
     * @throws Exception if the server cannot start, or a result is wrong
     */
    public static void main(String[] args) throws Exception {
        String fallback = args.length > 0 ? args[0] : "opencl:0";
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, Devices.system().cpu());
             DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer)
                     .build().start()) {
            producer.serve("values", batch(0).field(), (long) ENDPOINTS * BATCHES * ROWS,
                    IntStream.range(0, ENDPOINTS).<Supplier<DeviceArrayStream>>mapToObj(e -> () -> endpoint(e)).toList());
            String location = "grpc+tcp://127.0.0.1:" + server.getPort();
            List<byte[]> tickets;
            try (DeviceFlightClient client = DeviceFlightClient.builder(new Location(location), allocator).build()) {
                tickets = client.info("values").getEndpoints().stream().map(FlightEndpoint::getTicket).map(Ticket::getBytes).toList();
            }

            SparkSession spark = SparkSession.builder().master("local[2]").appName("spark-device-kernels")
                    .config("spark.ui.enabled", "false").getOrCreate();
            try {
                JavaRDD<Row> results = JavaSparkContext.fromSparkContext(spark.sparkContext())
                        .parallelize(tickets, tickets.size())
                        .map(ticket -> onTheTasksDevice(location, ticket, fallback));
                StructType columns = new StructType()
                        .add("partition", DataTypes.IntegerType).add("device", DataTypes.StringType)
                        .add("rows", DataTypes.LongType).add("sum", DataTypes.LongType)
                        .add("above_" + THRESHOLD, DataTypes.LongType);
                Dataset<Row> perTask = spark.createDataFrame(results, columns).orderBy("partition");
                perTask.show(false);
                check(perTask.collectAsList());
            } finally {
                spark.stop();
            }
        }
    }

    /** A task: its endpoint's batches onto its device, the kernels run there, one row of results. */
    private static Row onTheTasksDevice(String location, byte[] ticket, String fallback) throws Exception {
        Device device = taskDevice(fallback);
        long rows = 0;
        long sum = 0;
        long above = 0;
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightClient client = DeviceFlightClient.builder(new Location(location), allocator).build();
             DeviceArrayStream batches = client.get(new Ticket(ticket), device);
             ColumnKernels kernels = new ColumnKernels()) {
            while (batches.hasNext()) {
                try (DeviceArray batch = batches.next();            // landed on the task's device
                     DeviceArray values = batch.child(batch.field().childIndex("v"));
                     DeviceArray kept = kernels.filterGreaterThan(values, THRESHOLD)) {   // stays on the device
                    rows += values.length();
                    sum += kernels.sum(values);
                    above += kept.length();
                }
            }
        }
        return RowFactory.create(TaskContext.getPartitionId(), device.type() + ":" + device.id() + " " + device.name(), rows, sum, above);
    }

    /** {@return the device Spark assigned this task as resource gpu, or else the one named {@code fallback}} */
    private static Device taskDevice(String fallback) {
        if (TaskContext.get().resourcesJMap().containsKey("gpu")) {
            return SparkDevices.assigned("gpu").getFirst();
        }
        return SparkDevices.of("the fallback device", List.of(fallback), null, Devices.system()).getFirst();
    }

    /** Checks each task's results against the values the server sent, computed on the host. */
    private static void check(List<Row> perTask) {
        List<String> wrong = new ArrayList<>();
        for (Row row : perTask) {
            int e = row.getInt(0);
            long first = (long) e * BATCHES * ROWS;
            long last = first + (long) BATCHES * ROWS - 1;
            long sum = (first + last) * (last - first + 1) / 2;
            long above = Math.max(0, last - Math.max(first - 1, THRESHOLD));
            if (row.getLong(2) != (long) BATCHES * ROWS || row.getLong(3) != sum || row.getLong(4) != above) {
                wrong.add("partition " + e + ": " + row + ", expected sum " + sum + " and " + above + " above " + THRESHOLD);
            }
        }
        if (perTask.size() != ENDPOINTS || !wrong.isEmpty()) {
            throw new IllegalStateException(perTask.size() + " partitions; wrong: " + wrong);
        }
        System.out.println("every partition summed and filtered on " + perTask.getFirst().getString(1) + ": results match the host's");
    }

    private static DeviceArrayStream endpoint(int e) {
        List<DeviceArray> batches = IntStream.range(0, BATCHES).mapToObj(b -> batch((long) (e * BATCHES + b) * ROWS).toDeviceArray()).toList();
        return DeviceArrayStream.of(batches.getFirst().field(), DeviceType.CPU, batches.iterator());
    }

    /** {@return a batch of one int64 column v, the values {@code first} to {@code first + ROWS - 1}} */
    private static HostVector batch(long first) {
        return HostVector.struct("batch", HostVector.int64("v", LongStream.range(first, first + ROWS).boxed().toArray(Long[]::new)));
    }
}
