package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.flight.wire.CodecDoPut;
import dev.quiver.type.Field;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.impl.Flight;

import java.time.Duration;
import java.util.List;

/**
 * A {@link DeviceFlightProducer} as the target of puts on Quiver's data path ({@link CodecDoPut}): batches land
 * on the producer's put device, a stream is named by a descriptor's path of one element, and the stream received
 * is served under its name, the ticket sent back as the acknowledgement, as the producer's {@code acceptPut} does
 * for Arrow Java's path.
 *
 * <p><b>Threading.</b> Thread-safe, as the producer is.
 *
 * @param producer the producer the streams go to
 */
record ProducerPuts(DeviceFlightProducer producer) implements CodecDoPut.PutTarget {
    @Override
    public Device device() {
        return producer.putTarget();
    }

    @Override
    public Duration schemaTimeout() {
        return producer.schemaTimeout();
    }

    @Override
    public String name(Flight.FlightDescriptor descriptor) {
        FlightDescriptor arrowJava = descriptor.getType() == Flight.FlightDescriptor.DescriptorType.CMD
                ? FlightDescriptor.command(descriptor.getCmd().toByteArray()) : FlightDescriptor.path(descriptor.getPathList());
        return DeviceFlightProducer.nameOf(arrowJava);
    }

    @Override
    public void bodyReceived(long bytes) {
        producer.countReceived(bytes);
    }

    @Override
    public byte[] received(String name, Field schema, List<DeviceArray> batches) {
        return producer.serve(name, schema, batches).getBytes();
    }
}
