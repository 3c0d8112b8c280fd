package dev.quiver.spark;

import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A plain Arrow Java Flight server (no Quiver on its side) is a source too: its two endpoints are two partitions. */
class PlainServerTest {
    private static final int ENDPOINTS = 2;
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("x", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
            new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));

    @Test
    void aPlainArrowJavaServerIsReadEndpointByEndpoint() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             FlightServer server = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), new Plain(allocator)).build().start()) {
            Dataset<Row> rows = LocalSpark.session().read().format("quiver-flight")
                    .option("location", "grpc+tcp://127.0.0.1:" + server.getPort()).option("path", "plain").load();
            assertEquals(ENDPOINTS, rows.rdd().getNumPartitions());
            assertNull(Rows.wrong(rows.collectAsList(), ENDPOINTS * Rows.ROWS_PER_ENDPOINT));
        }
        Eventually.holds("readers' memory released", () -> SparkAllocators.allocatedBytes() == 0, () -> SparkAllocators.allocatedBytes() + " B");
    }

    /** Serves {@code plain} as endpoints whose tickets are their numbers, each sent by Arrow Java's own writer. */
    private static final class Plain extends NoOpFlightProducer {
        private final BufferAllocator allocator;

        Plain(BufferAllocator allocator) {
            this.allocator = allocator;
        }

        @Override
        public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
            List<FlightEndpoint> endpoints = IntStream.range(0, ENDPOINTS)
                    .mapToObj(e -> new FlightEndpoint(new Ticket(Integer.toString(e).getBytes(StandardCharsets.UTF_8)))).toList();
            return new FlightInfo(SCHEMA, descriptor, endpoints, -1, ENDPOINTS * Rows.ROWS_PER_ENDPOINT);
        }

        @Override
        public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
            int endpoint = Integer.parseInt(new String(ticket.getBytes(), StandardCharsets.UTF_8));
            try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
                listener.start(root);
                for (int b = 0; b < Rows.BATCHES_PER_ENDPOINT; b++) {
                    root.allocateNew();
                    long first = (long) endpoint * Rows.ROWS_PER_ENDPOINT + (long) b * Rows.ROWS_PER_BATCH;
                    for (int i = 0; i < Rows.ROWS_PER_BATCH; i++) {
                        long r = first + i;
                        ((BigIntVector) root.getVector("id")).setSafe(i, r);
                        ((Float8Vector) root.getVector("x")).setSafe(i, r / 2.0);
                        String s = Rows.s(r);
                        if (s != null) {
                            ((VarCharVector) root.getVector("s")).setSafe(i, s.getBytes(StandardCharsets.UTF_8));
                        }
                    }
                    root.setRowCount(Rows.ROWS_PER_BATCH);
                    listener.putNext();
                }
                listener.completed();
            }
        }
    }
}
