package dev.quiver.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

import java.io.Serial;

/**
 * Makes the columnar reader of each endpoint on the executors ({@link EndpointReader}); reads are columnar only.
 *
 * <p><b>Ownership and threading.</b> Immutable; made on the driver, shipped to the executors, called on task threads.
 */
final class EndpointReaderFactory implements PartitionReaderFactory {
    @Serial
    private static final long serialVersionUID = 1L;
    private final FlightOptions options;

    EndpointReaderFactory(FlightOptions options) {
        this.options = options;
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return true;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        return EndpointReader.open(options, (EndpointPartition) partition);
    }

    /** @throws UnsupportedOperationException always: Spark reads this source in columns */
    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        throw new UnsupportedOperationException("quiver-flight reads columnar batches only (supportColumnarReads is true)");
    }
}
