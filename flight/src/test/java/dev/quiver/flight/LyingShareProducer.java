package dev.quiver.flight;

import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;

/**
 * A test double of a server that answers the {@value DeviceFlightProducer#SHARE_ACTION} action with an answer
 * of the test's making (another host, a socket that is not there, garbage), and serves every ticket's bytes
 * through a real {@link DeviceFlightProducer}. Thread-safe.
 */
final class LyingShareProducer extends NoOpFlightProducer {
    private final DeviceFlightProducer bytes;
    private final byte[] answer;

    /**
     * @param bytes  serves {@code DoGet}
     * @param answer the body of the action's one result
     */
    LyingShareProducer(DeviceFlightProducer bytes, byte[] answer) {
        this.bytes = bytes;
        this.answer = answer.clone();
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        bytes.getStream(context, ticket, listener);
    }

    @Override
    public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
        listener.onNext(new Result(answer));
        listener.onCompleted();
    }
}
