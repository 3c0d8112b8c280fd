package dev.quiver.spark;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.flight.Delivery;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.SparkSession;

import java.lang.management.ManagementFactory;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * Spark reading a Flight stream of 4 endpoints (one partition each, {@code format("quiver-flight")}, {@code local[4]},
 * action {@code count()}, which takes every batch of every partition) against Quiver's own parallel client on the
 * same stream ({@link DeviceFlightClient#get(org.apache.arrow.flight.FlightInfo, dev.quiver.Device, Delivery,
 * org.apache.arrow.flight.CallOption...)} over the stream's endpoints, landing every batch on the CPU and closing
 * it), in one run: each path {@code --warmup} times, then {@code --runs} times, alternating. The stream is served
 * in this JVM on loopback: per endpoint {@code --endpoint-mib} MiB of Arrow buffers in batches of 8 MiB, each a
 * struct of an int64 column and a utf8 column (12-byte strings); every batch served is a slice of one batch made
 * once. Prints each run and the medians in MiB/s of buffer bytes, and Spark's ratio to Quiver's client. Runs on the
 * main thread (plus Spark's and the server's).
 */
public final class SparkFlightThroughput {
    private static final int ENDPOINTS = 4;
    private static final long BATCH_BYTES = 8L << 20;
    private static final int NAME = 12;

    private SparkFlightThroughput() {}

    /**
     * @param args {@code --endpoint-mib N} (default 64), {@code --runs N} (default 5), {@code --warmup N} (default 1)
     * @throws Exception if the server cannot start or a read fails
     */
    public static void main(String[] args) throws Exception {
        int endpointMib = 64;
        int runs = 5;
        int warmUp = 1;
        for (int i = 0; i < args.length; i += 2) {
            int value = Integer.parseInt(args[i + 1]);
            switch (args[i]) {
                case "--endpoint-mib" -> endpointMib = value;
                case "--runs" -> runs = value;
                case "--warmup" -> warmUp = value;
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--endpoint-mib, --runs, --warmup)");
            }
        }
        int batchesPerEndpoint = Math.max(1, Math.toIntExact((endpointMib * (1L << 20)) / BATCH_BYTES));
        SparkSession spark = LocalSpark.session();
        try (BufferAllocator allocator = new RootAllocator();
             VectorSchemaRoot root = batch(Math.toIntExact(BATCH_BYTES / (Long.BYTES + NAME + Integer.BYTES)), allocator);
             DeviceArray template = VectorExport.toDeviceArray(root, null, allocator);
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, Devices.system().cpu());
             DeviceFlightServer server = DeviceFlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer).build().start();
             DeviceFlightClient client = DeviceFlightClient.builder(Location.forGrpcInsecure("127.0.0.1", server.getPort()), allocator).build()) {
            long rowsPerEndpoint = (long) batchesPerEndpoint * template.length();
            producer.serve("bench", template.field(), ENDPOINTS * rowsPerEndpoint,
                    endpoints(template.field(), template, batchesPerEndpoint));
            long bytes = (long) ENDPOINTS * batchesPerEndpoint * bufferBytes(root);
            System.out.printf(Locale.ROOT, "Spark local[4] count() against Quiver's parallel client, %s: one stream of %d endpoints x %d MiB "
                            + "(int64 + utf8, batches of %d rows), %d warm-up and %d measured runs each, alternating; JDK %s, %d cores, load average %.1f before%n",
                    LocalDate.now(), ENDPOINTS, endpointMib, template.length(), warmUp, runs, Runtime.version(),
                    Runtime.getRuntime().availableProcessors(), loadAverage());
            String location = "grpc+tcp://127.0.0.1:" + server.getPort();
            long expected = ENDPOINTS * rowsPerEndpoint;
            List<Double> quiver = new ArrayList<>();
            List<Double> sparkRates = new ArrayList<>();
            for (int run = 0; run < warmUp + runs; run++) {
                double q = rate(bytes, () -> readWithClient(client, expected));
                double s = rate(bytes, () -> check(spark.read().format("quiver-flight").option("location", location)
                        .option("path", "bench").load().count(), expected));
                String kind = run < warmUp ? "warm-up" : "run";
                System.out.printf(Locale.ROOT, "%-7s %d: Quiver client %8.1f MiB/s, Spark %8.1f MiB/s; %s%n", kind, run + 1, q, s,
                        fixedCosts(spark, location));
                if (run >= warmUp) {
                    quiver.add(q);
                    sparkRates.add(s);
                }
            }
            double q = median(quiver);
            double s = median(sparkRates);
            System.out.printf(Locale.ROOT, "median: Quiver client %.1f MiB/s, Spark %.1f MiB/s, Spark / Quiver %.2f; load average %.1f after%n",
                    q, s, s / q, loadAverage());
        } finally {
            spark.stop();
        }
    }

    /**
     * {@return what a Spark read pays whatever the stream's size, timed after the measured reads: the source's schema
     * inference ({@code load()}, one {@code GetFlightInfo}) and a job as small as Spark makes with 4 tasks
     * ({@code spark.range(0, 4, 1, 4).count()})}
     */
    private static String fixedCosts(SparkSession spark, String location) {
        long start = System.nanoTime();
        spark.read().format("quiver-flight").option("location", location).option("path", "bench").load();
        long loaded = System.nanoTime();
        spark.range(0, 4, 1, 4).count();
        long counted = System.nanoTime();
        return String.format(Locale.ROOT, "load() %.0f ms, a 4-task count() of nothing %.0f ms", (loaded - start) / 1e6, (counted - loaded) / 1e6);
    }

    /** Each endpoint's stream: {@code batches} slices of the template (sharing its memory; each closed when sent). */
    private static List<Supplier<DeviceArrayStream>> endpoints(Field field, DeviceArray template, int batches) {
        Supplier<DeviceArrayStream> endpoint = () -> DeviceArrayStream.of(field, DeviceType.CPU,
                IntStream.range(0, batches).mapToObj(b -> template.slice(0, template.length())));
        return java.util.Collections.nCopies(ENDPOINTS, endpoint);
    }

    private static long readWithClient(DeviceFlightClient client, long expected) {
        long rows = 0;
        try (DeviceArrayStream stream = client.get(client.info("bench"), Devices.system().cpu(), Delivery.AS_THEY_COME)) {
            while (stream.hasNext()) {
                try (DeviceArray batch = stream.next()) {
                    rows += batch.length();
                }
            }
        }
        return check(rows, expected);
    }

    private static long check(long rows, long expected) {
        if (rows != expected) {
            throw new IllegalStateException(rows + " rows read, not " + expected);
        }
        return rows;
    }

    /** {@return MiB/s of {@code bytes} over the time {@code read} takes} */
    private static double rate(long bytes, java.util.function.LongSupplier read) {
        long start = System.nanoTime();
        read.getAsLong();
        return bytes / (double) (1 << 20) / ((System.nanoTime() - start) / 1e9);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /** {@return a batch of {@code rows} rows: id int64 0..rows-1, name utf8 {@code s00000000042}, all valid; owned by the caller} */
    private static VectorSchemaRoot batch(int rows, BufferAllocator allocator) {
        BigIntVector id = new BigIntVector("id", allocator);
        VarCharVector name = new VarCharVector("name", allocator);
        id.allocateNew(rows);
        name.allocateNew((long) rows * NAME, rows);
        ArrowBuf offsets = name.getOffsetBuffer();
        byte[] text = new byte[NAME];
        text[0] = 's';
        for (int r = 0; r < rows; r++) {
            id.getDataBuffer().setLong((long) r * Long.BYTES, r);
            int rest = r;
            for (int d = NAME - 1; d > 0; d--) {
                text[d] = (byte) ('0' + rest % 10);
                rest /= 10;
            }
            name.getDataBuffer().setBytes((long) r * NAME, text);
            offsets.setInt((long) (r + 1) * Integer.BYTES, (r + 1) * NAME);
        }
        offsets.setInt(0, 0);
        name.setLastSet(rows - 1);   // before the value count, which would otherwise fill the offsets as empty strings
        for (FieldVector vector : List.<FieldVector>of(id, name)) {
            ArrowBuf validity = vector.getValidityBuffer();
            validity.setOne(0, rows / 8);
            for (int r = rows / 8 * 8; r < rows; r++) {
                BitVectorHelper.setBit(validity, r);
            }
            vector.setValueCount(rows);
        }
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(id, name));
        root.setRowCount(rows);
        return root;
    }

    private static long bufferBytes(VectorSchemaRoot root) {
        return root.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum();
    }
}
