package dev.quiver.flight;

import dev.quiver.Diagnostics;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightProducer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;

import java.nio.charset.StandardCharsets;

/**
 * The producer of the servers the tests and the benchmark start: a {@link DeviceFlightProducer}, plus one
 * action, {@code counters}, that tells a test in another JVM what the server made and released (see
 * {@link ServerCounters}), {@value DeviceFlightProducer#SHARE_ACTION} passed on, and for the benchmark the ticket {@code plain}, served by plain Arrow Java Flight.
 * Thread-safe.
 */
final class TestProducer implements FlightProducer {
    static final String COUNTERS = "counters";
    static final Ticket PLAIN = new Ticket("plain".getBytes(StandardCharsets.US_ASCII));

    private final DeviceFlightProducer served;
    private final BufferAllocator allocator;
    private final PlainFlightProducer plain;

    /**
     * @param served    serves every ticket but {@code plain}
     * @param allocator the server's, whose memory the counters report
     * @param plain     serves the ticket {@code plain}, or null if there is none
     */
    TestProducer(DeviceFlightProducer served, BufferAllocator allocator, PlainFlightProducer plain) {
        this.served = served;
        this.allocator = allocator;
        this.plain = plain;
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        if (plain != null && PLAIN.equals(ticket)) {
            plain.getStream(context, ticket, listener);
        } else {
            served.getStream(context, ticket, listener);
        }
    }

    @Override
    public void listFlights(CallContext context, Criteria criteria, StreamListener<FlightInfo> listener) {
        served.listFlights(context, criteria, listener);
    }

    @Override
    public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
        return served.getFlightInfo(context, descriptor);
    }

    @Override
    public Runnable acceptPut(CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream) {
        return served.acceptPut(context, flightStream, ackStream);
    }

    @Override
    public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
        if (DeviceFlightProducer.SHARE_ACTION.equals(action.getType())) {
            served.doAction(context, action, listener);
            return;
        }
        if (!COUNTERS.equals(action.getType())) {
            listener.onError(CallStatus.NOT_FOUND.withDescription("no action " + action.getType()).toRuntimeException());
            return;
        }
        String counters = new ServerCounters(CountingSource.MADE.get(), CountingSource.CLOSED.get(), Diagnostics.liveExports(),
                allocator.getAllocatedMemory()).encode();
        listener.onNext(new Result(counters.getBytes(StandardCharsets.UTF_8)));
        listener.onCompleted();
    }

    @Override
    public void listActions(CallContext context, StreamListener<ActionType> listener) {
        listener.onNext(new ActionType(COUNTERS, "what the server made and released"));
        listener.onCompleted();
    }
}
