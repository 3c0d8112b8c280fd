package dev.quiver.flight;

import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@link BenchServer}'s producer: the ticket {@code plain} goes to the plain Arrow Java producer, everything
 * else to Quiver's. Thread-safe as the two are.
 */
final class RoutingProducer extends NoOpFlightProducer {
    static final Ticket PLAIN = new Ticket("plain".getBytes(StandardCharsets.US_ASCII));

    private final PlainFlightProducer plain;
    private final DeviceFlightProducer quiver;

    RoutingProducer(PlainFlightProducer plain, DeviceFlightProducer quiver) {
        this.plain = plain;
        this.quiver = quiver;
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        if (Arrays.equals(ticket.getBytes(), PLAIN.getBytes())) {
            plain.getStream(context, ticket, listener);
        } else {
            quiver.getStream(context, ticket, listener);
        }
    }

    @Override
    public void listFlights(CallContext context, Criteria criteria, StreamListener<FlightInfo> listener) {
        quiver.listFlights(context, criteria, listener);
    }

    @Override
    public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
        return quiver.getFlightInfo(context, descriptor);
    }
}
