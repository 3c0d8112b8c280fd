package dev.quiver.spark;

import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;

import java.util.Arrays;
import java.util.Objects;

/**
 * The write of a DataFrame to a Flight server: each partition is sent as one put named {@code PATH/part-N}
 * ({@link PartitionPut}). The server sees one stream per partition, each with the DataFrame's schema; a task attempt
 * that is retried puts its partition again under the same name. Nothing is undone on abort: what a server stored
 * from the puts that completed stays there.
 *
 * <p><b>Ownership and threading.</b> Made and called by Spark on the driver; immutable.
 */
final class FlightWrite implements Write, BatchWrite {
    private static final System.Logger LOG = System.getLogger(FlightWrite.class.getName());
    private final FlightOptions options;
    private final StructType schema;

    FlightWrite(FlightOptions options, StructType schema) {
        this.options = options;
        this.schema = schema;
        options.partName(0);
    }

    @Override
    public String description() {
        return QuiverFlightSource.NAME + " put " + options;
    }

    @Override
    public BatchWrite toBatch() {
        return this;
    }

    @Override
    public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
        String timeZone = SQLConf.get().sessionLocalTimeZone();
        FlightOptions where = options;
        StructType columns = schema;
        return (partitionId, taskId) -> new PartitionPut(where, columns, timeZone, partitionId);
    }

    @Override
    public void commit(WriterCommitMessage[] messages) {
        LOG.log(System.Logger.Level.DEBUG, () -> description() + ": " + Arrays.toString(messages));
    }

    @Override
    public void abort(WriterCommitMessage[] messages) {
        LOG.log(System.Logger.Level.WARNING, () -> description() + " aborted; the server keeps the partitions put before: "
                + Arrays.stream(messages).filter(Objects::nonNull).toList());
    }
}
