package dev.quiver.spark;

import dev.quiver.flight.DeviceFlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The read of a Flight stream: on the driver, asks the server for the stream's {@code FlightInfo} and makes one
 * {@link EndpointPartition} per endpoint, in the server's order; the executors read them with
 * {@link EndpointReaderFactory}.
 *
 * <p>Planning asks the server again rather than reusing the answer schema inference had: each action reads the
 * endpoints the server lists when it is planned (a stream may be served anew between two actions of one
 * DataFrame), for one {@code GetFlightInfo} per action.
 *
 * <p><b>Ownership and threading.</b> Made and called by Spark on the driver; the connection it plans with is closed
 * before {@link #planInputPartitions()} returns.
 */
final class FlightScan implements Scan, Batch {
    private final FlightOptions options;
    private final StructType schema;

    FlightScan(FlightOptions options, StructType schema) {
        this.options = options;
        this.schema = schema;
    }

    /** What the server says of a stream: its Spark schema and its endpoints, each as a one-endpoint FlightInfo. */
    record Plan(StructType schema, List<byte[]> endpoints) {}

    /**
     * {@return the stream's plan, asked of the server}
     * @param options where and which stream
     * @throws IllegalStateException naming the stream and the server if the server refuses or cannot be reached
     */
    static Plan plan(FlightOptions options) {
        BufferAllocator allocator = SparkAllocators.child("quiver-flight plan " + options);
        try (DeviceFlightClient client = options.client(allocator)) {
            FlightInfo info = client.flightClient().getInfo(options.descriptor(), client.callOptions());
            StructType schema = ArrowUtils.fromArrowSchema(info.getSchema());
            List<byte[]> endpoints = info.getEndpoints().stream().map(endpoint -> alone(info, endpoint)).toList();
            return new Plan(schema, endpoints);
        } catch (FlightRuntimeException e) {
            throw new IllegalStateException("quiver-flight: the server refused to describe " + options + ": "
                    + e.status().code() + " " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("quiver-flight: interrupted while asking " + options, e);
        } finally {
            SparkAllocators.close(allocator);
        }
    }

    /** {@return the stream's description with only {@code endpoint}, serialized: one partition's part} */
    private static byte[] alone(FlightInfo info, FlightEndpoint endpoint) {
        ByteBuffer bytes = new FlightInfo(info.getSchema(), info.getDescriptor(), List.of(endpoint), -1, -1).serialize();
        byte[] out = new byte[bytes.remaining()];
        bytes.get(out);
        return out;
    }

    @Override
    public StructType readSchema() {
        return schema;
    }

    @Override
    public String description() {
        return QuiverFlightSource.NAME + " " + options;
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    /**
     * {@inheritDoc}
     * @throws IllegalStateException if the stream's schema is not the one the read was planned with
     */
    @Override
    public InputPartition[] planInputPartitions() {
        Plan plan = plan(options);
        if (!plan.schema().equals(schema)) {
            throw new IllegalStateException("quiver-flight: the server's schema of " + options + " is " + plan.schema().simpleString()
                    + ", not " + schema.simpleString() + " as the read expects");
        }
        InputPartition[] partitions = new InputPartition[plan.endpoints().size()];
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = new EndpointPartition(i, plan.endpoints().get(i));
        }
        return partitions;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new EndpointReaderFactory(options);
    }
}
