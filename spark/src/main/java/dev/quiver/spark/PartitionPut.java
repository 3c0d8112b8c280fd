package dev.quiver.spark;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.arrowjava.ArrowJavaSchemas;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.execution.arrow.ArrowWriter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;

import java.io.Serial;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Writes one partition of a DataFrame as one Flight put: rows go into Arrow Java vectors (Spark's own
 * {@link ArrowWriter}), {@code batchRows} to a batch, each batch handed to Quiver without a copy
 * ({@link VectorExport}); at {@link #commit()} the batches are put under {@code PATH/part-N}.
 *
 * <p><b>Ownership.</b> The writer owns the batches it has filled until the put takes them at commit; {@link #abort()}
 * and {@link #close()} release whatever it still holds, exactly once. The partition's rows stay in memory until the
 * commit.
 *
 * <p><b>Threading.</b> One task thread calls every method, as Spark does.
 */
final class PartitionPut implements DataWriter<InternalRow> {
    private final FlightOptions options;
    private final String name;
    private final Schema arrowSchema;
    private final BufferAllocator allocator;
    private final Batches batches = new Batches();
    private VectorSchemaRoot root;
    private ArrowWriter writer;
    private int rowsInBatch;
    private long rows;
    private boolean closed;

    PartitionPut(FlightOptions options, StructType schema, String timeZone, int partitionId) {
        this.options = options;
        this.name = options.partName(partitionId);
        this.arrowSchema = ArrowUtils.toArrowSchema(schema, timeZone, true, false);
        this.allocator = SparkAllocators.child("quiver-flight put " + name);
    }

    @Override
    public void write(InternalRow row) {
        if (writer == null) {
            root = VectorSchemaRoot.create(arrowSchema, allocator);
            writer = ArrowWriter.create(root);
        }
        writer.write(row);
        rows++;
        if (++rowsInBatch == options.batchRows()) {
            seal();
        }
    }

    /** Ends the batch being filled: exports it (the vectors' buffers, shared) and drops the root and its writer. */
    private void seal() {
        writer.finish();
        try (VectorSchemaRoot filled = root) {
            batches.add(VectorExport.toDeviceArray(filled, null, allocator));
        } finally {
            root = null;
            writer = null;
            rowsInBatch = 0;
        }
    }

    /** {@return what was put} Sends the partition's batches as one put. */
    @Override
    public WriterCommitMessage commit() throws java.io.IOException {
        if (writer != null) {
            seal();
        }
        Field field = ArrowJavaSchemas.toField(arrowSchema, null, allocator);
        try (DeviceFlightClient client = options.client(allocator)) {
            Ticket ticket = client.put(name, DeviceArrayStream.of(field, DeviceType.CPU, batches));
            return new Put(name, rows, ticket.getBytes());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("put " + name + " interrupted");
        } finally {
            batches.close();
        }
    }

    @Override
    public void abort() {
        close();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            batches.close();
            if (root != null) {
                root.close();
            }
        } finally {
            SparkAllocators.close(allocator);
        }
    }

    /**
     * What one partition's put sent, for the driver's log.
     *
     * @param name   the put's name, {@code PATH/part-N}
     * @param rows   rows sent
     * @param ticket the ticket the server issued for it
     */
    record Put(String name, long rows, byte[] ticket) implements WriterCommitMessage {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public String toString() {
            return name + " (" + rows + " rows)";
        }
    }

    /** The filled batches, taken in order by the put; those not taken are released at {@link #close()}. */
    private static final class Batches implements Iterator<DeviceArray>, AutoCloseable {
        private final ArrayDeque<DeviceArray> waiting = new ArrayDeque<>();

        void add(DeviceArray batch) {
            waiting.add(batch);
        }

        @Override
        public boolean hasNext() {
            return !waiting.isEmpty();
        }

        @Override
        public DeviceArray next() {
            if (waiting.isEmpty()) {
                throw new NoSuchElementException();
            }
            return waiting.poll();
        }

        @Override
        public void close() {
            for (DeviceArray batch; (batch = waiting.poll()) != null; ) {
                batch.close();
            }
        }
    }
}
