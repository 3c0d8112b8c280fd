package dev.quiver.flight.wire;

import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.Status;
import org.apache.arrow.flight.impl.Flight;

import java.util.function.Predicate;

/**
 * Flight's {@code DoGet}, registered with the codec's marshaller, routed by its ticket: a ticket of a stream
 * Quiver serves itself goes to the codec's handler, any other to Arrow Java's own (whose replies are encoded by
 * its marshaller, see {@link ReplyEncoding}), so streams a wrapped producer answers (and its errors, such as
 * {@code NOT_FOUND}) reach clients as before. The handler is chosen when the ticket arrives; the call's events
 * before it are the router's.
 *
 * <p><b>Threading.</b> gRPC calls the listener on the call's serializing executor; stateless otherwise.
 *
 * @param <R> the reply type of Arrow Java's descriptor
 */
final class TicketRouting<R> implements ServerCallHandler<Flight.Ticket, FlightMessage> {
    private final Predicate<Flight.Ticket> ours;
    private final ServerCallHandler<Flight.Ticket, FlightMessage> codec;
    private final MethodDescriptor<Flight.Ticket, R> arrowJavaMethod;
    private final ServerCallHandler<Flight.Ticket, R> arrowJava;

    /**
     * @param ours            whether a ticket is one the codec serves
     * @param codec           the codec's handler
     * @param arrowJavaMethod Arrow Java's descriptor of {@code DoGet}
     * @param arrowJava       Arrow Java's handler
     */
    TicketRouting(Predicate<Flight.Ticket> ours, ServerCallHandler<Flight.Ticket, FlightMessage> codec,
                  MethodDescriptor<Flight.Ticket, R> arrowJavaMethod, ServerCallHandler<Flight.Ticket, R> arrowJava) {
        this.ours = ours;
        this.codec = codec;
        this.arrowJavaMethod = arrowJavaMethod;
        this.arrowJava = arrowJava;
    }

    @Override
    public ServerCall.Listener<Flight.Ticket> startCall(ServerCall<Flight.Ticket, FlightMessage> call, Metadata headers) {
        call.request(1);
        return new ChosenListener<Flight.Ticket, Flight.Ticket>() {

            @Override
            public void onMessage(Flight.Ticket ticket) {
                if (chosen == null) {
                    chosen = ours.test(ticket) ? codec.startCall(call, headers)
                            : arrowJava.startCall(new ReplyEncoding<>(call, arrowJavaMethod), headers);
                }
                chosen.onMessage(ticket);
            }

            @Override
            public void onHalfClose() {
                if (chosen == null) {
                    call.close(Status.INVALID_ARGUMENT.withDescription("DoGet needs a ticket; the call ended without one"), new Metadata());
                } else {
                    chosen.onHalfClose();
                }
            }
        };
    }
}
