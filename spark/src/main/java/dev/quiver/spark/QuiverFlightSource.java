package dev.quiver.spark;

import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.Map;

/**
 * The Spark data source {@value #NAME}: an Arrow Flight stream read as one partition per endpoint, and a DataFrame
 * written as one Flight put per partition. Found by Spark through {@code META-INF/services}:
 * {@snippet :
 * Dataset<Row> trades = spark.read().format("quiver-flight")
 *         .option("location", "grpc+tcp://flight-host:8815").option("path", "trades").load();
 * trades.write().format("quiver-flight").mode("append")
 *         .option("location", "grpc+tcp://flight-host:8815").option("path", "trades-copy").save();
 * }
 * The options are {@link FlightOptions}'s. A read's schema is the server's ({@code GetFlightInfo}), its Arrow types
 * mapped to Spark's by Spark's own Arrow mapping; a write's is the DataFrame's.
 *
 * <p><b>Ownership and threading.</b> Made and called by Spark on the driver; stateless.
 */
public final class QuiverFlightSource implements TableProvider, DataSourceRegister {
    /** The short name: {@code spark.read().format("quiver-flight")}. */
    public static final String NAME = "quiver-flight";

    /** Made by Spark's {@code ServiceLoader}. */
    public QuiverFlightSource() {}

    @Override
    public String shortName() {
        return NAME;
    }

    /** {@return the stream's schema, asked of the server} */
    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return FlightScan.plan(FlightOptions.of(options)).schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return new FlightTable(schema, FlightOptions.of(properties));
    }

    /** {@return true: a write gives its DataFrame's schema, and a read may give the schema it expects} */
    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }
}
