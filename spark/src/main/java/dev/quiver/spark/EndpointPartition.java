package dev.quiver.spark;

import org.apache.arrow.flight.FlightInfo;
import org.apache.spark.sql.connector.read.InputPartition;

import java.io.IOException;
import java.io.Serial;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;

/**
 * One endpoint of a Flight stream, a Spark input partition: the stream's {@code FlightInfo} reduced to that endpoint
 * (its ticket and locations), serialized as Flight does.
 *
 * <p><b>Ownership and threading.</b> Immutable; made on the driver, shipped to an executor.
 *
 * @param index    the endpoint's place in the stream's {@code FlightInfo}
 * @param endpoint the serialized one-endpoint {@code FlightInfo}
 */
record EndpointPartition(int index, byte[] endpoint) implements InputPartition {
    @Serial
    private static final long serialVersionUID = 1L;

    /** {@return the one-endpoint description} */
    FlightInfo info() {
        try {
            return FlightInfo.deserialize(ByteBuffer.wrap(endpoint));
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("endpoint " + index + ": its description does not read back: " + e.getMessage(), e);
        }
    }
}
