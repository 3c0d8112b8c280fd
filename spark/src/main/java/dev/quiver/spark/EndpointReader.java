package dev.quiver.spark;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.arrowjava.VectorImport;
import dev.quiver.flight.Delivery;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads one endpoint of a Flight stream as Spark columnar batches. Quiver's {@link DeviceFlightClient} fetches the
 * endpoint (from its own location, or the source's), landing each batch in Quiver's host memory; the batch goes to
 * Arrow Java vectors without a copy ({@link VectorImport}: the vectors' buffers are the received memory) and Spark
 * reads them through {@link ArrowColumnVector}s.
 *
 * <p><b>Ownership.</b> The reader owns its connection, its stream and the batch it hands out: a batch from
 * {@link #get()} stays valid until the next {@link #next()} or {@link #close()}, which release it (its vectors, and
 * through them the received memory, exactly once). Spark closes the reader when the task ends; the reader also closes
 * itself at the end of its task (a task completion listener, which Spark runs when a task succeeds, fails or is
 * killed), so a killed task releases everything it held. Closing twice does nothing.
 *
 * <p><b>Threading.</b> One task thread calls {@link #next()}, {@link #get()} and {@link #close()}; the task's
 * completion listener runs on that thread too. A kill interrupts the thread: a {@link #next()} waiting for a batch
 * then fails, and the reader is closed.
 */
final class EndpointReader implements PartitionReader<ColumnarBatch> {
    private final String what;
    private final BufferAllocator allocator;
    private final DeviceFlightClient client;
    private final DeviceArrayStream stream;
    private final AtomicBoolean closed = new AtomicBoolean();
    private VectorSchemaRoot root;
    private ColumnarBatch batch;

    private EndpointReader(String what, BufferAllocator allocator, DeviceFlightClient client, DeviceArrayStream stream) {
        this.what = what;
        this.allocator = allocator;
        this.client = client;
        this.stream = stream;
    }

    /**
     * {@return a reader of the endpoint, its call started, owned by the caller}
     * @param options   the source's options (the server, trust, login)
     * @param partition the endpoint
     */
    static EndpointReader open(FlightOptions options, EndpointPartition partition) {
        String what = "endpoint " + partition.index() + " of " + options;
        BufferAllocator allocator = SparkAllocators.child("quiver-flight " + what);
        DeviceFlightClient client = null;
        try {
            client = options.client(allocator);
            DeviceArrayStream stream = client.get(partition.info(), Devices.system().cpu(), Delivery.IN_ORDER);
            EndpointReader reader = new EndpointReader(what, allocator, client, stream);
            TaskContext task = TaskContext.get();
            if (task != null) {
                task.addTaskCompletionListener((org.apache.spark.util.TaskCompletionListener) context -> reader.close());
            }
            return reader;
        } catch (RuntimeException | Error e) {
            closeClient(client, e);
            SparkAllocators.close(allocator);
            throw e;
        }
    }

    /**
     * Releases the batch handed out before, and takes the next.
     *
     * @return false at the end of the endpoint's stream, or once closed
     * @throws dev.quiver.stream.StreamException if the transfer broke off or the task was killed meanwhile
     * @throws IllegalArgumentException if a batch cannot go to Arrow Java vectors (a dictionary-encoded column)
     */
    @Override
    public boolean next() {
        releaseBatch();
        if (closed.get() || !stream.hasNext()) {
            return false;
        }
        DeviceArray array = stream.next();
        try {
            root = VectorImport.toVectorSchemaRoot(array, allocator, null);
        } catch (RuntimeException e) {
            array.close();
            throw new IllegalArgumentException(what + ": a batch cannot go to Spark's Arrow vectors: " + e.getMessage(), e);
        }
        ColumnVector[] columns = root.getFieldVectors().stream().map(ArrowColumnVector::new).toArray(ColumnVector[]::new);
        batch = new ColumnarBatch(columns, root.getRowCount());
        return true;
    }

    /** {@return the batch {@link #next()} took, valid until the next call of next or close} */
    @Override
    public ColumnarBatch get() {
        if (batch == null) {
            throw new IllegalStateException(what + ": no batch (next() returned false, or was not called)");
        }
        return batch;
    }

    private void releaseBatch() {
        batch = null;
        if (root != null) {
            VectorSchemaRoot held = root;
            root = null;
            held.close();
        }
    }

    /** Releases the batch held, cancels the call if it is still running, and closes the connection; idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            releaseBatch();
            stream.close();
        } finally {
            closeClient(client, null);
            SparkAllocators.close(allocator);
        }
    }

    private static void closeClient(DeviceFlightClient client, Throwable failure) {
        if (client == null) {
            return;
        }
        try {
            client.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            } else {
                throw e;
            }
        }
    }
}
