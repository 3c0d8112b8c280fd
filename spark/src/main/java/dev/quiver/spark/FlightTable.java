package dev.quiver.spark;

import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.EnumSet;
import java.util.Set;

/**
 * A Flight stream as a Spark table: read in batches (one partition per endpoint, {@link FlightScan}) and appended
 * to (one put per partition, {@link FlightWrite}).
 *
 * <p><b>Ownership and threading.</b> Made by {@link QuiverFlightSource} on the driver; immutable.
 */
final class FlightTable implements SupportsRead, SupportsWrite {
    private final StructType schema;
    private final FlightOptions options;

    FlightTable(StructType schema, FlightOptions options) {
        this.schema = schema;
        this.options = options;
    }

    @Override
    public String name() {
        return QuiverFlightSource.NAME + " " + options;
    }

    @Override
    @SuppressWarnings("deprecation")
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
        return () -> new FlightScan(options, schema);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        FlightWrite write = new FlightWrite(options, info.schema());
        return new WriteBuilder() {
            @Override
            public org.apache.spark.sql.connector.write.Write build() {
                return write;
            }
        };
    }
}
