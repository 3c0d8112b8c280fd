package dev.quiver.flight;

import dev.quiver.Devices;
import dev.quiver.share.ReceiveOptions;
import dev.quiver.share.ShareClient;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;

import java.time.Duration;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client's side of the same-host path: asks the server for a ticket's stream through the
 * {@value DeviceFlightProducer#SHARE_ACTION} action, checks that the server runs on this host as this user, and
 * connects to the socket it named. Each step is bounded by a timeout, and what the server answers is untrusted:
 * anything that does not lead to a connected {@link ShareClient} becomes a reason to fetch bytes instead.
 * Stateless; any thread.
 */
final class SameHostPath {
    /** Results read from the action at most: the server answers one. */
    private static final int MAX_RESULTS = 4;

    private SameHostPath() {}

    /**
     * What an attempt gave: a connected client, or why there is none.
     *
     * @param client         connected with the stream's schema received, owned by the caller; null on fallback
     * @param fallbackReason why the bytes path is to be taken; null when {@code client} is given
     */
    record Outcome(ShareClient client, String fallbackReason) {
        static Outcome fallback(String reason) {
            return new Outcome(null, reason);
        }
    }

    /**
     * Tries the same-host path.
     *
     * @param flight  the Flight client
     * @param ticket  the stream's ticket
     * @param options the call's options (credentials, deadline)
     * @param timeout bounds the action and the connection, each
     * @param devices the registry whose CPU the received arrays are of
     * @return the outcome
     */
    static Outcome attempt(FlightClient flight, Ticket ticket, CallOption[] options, Duration timeout, Devices devices) {
        Optional<String> host = HostIdentity.current();
        if (host.isEmpty()) {
            return Outcome.fallback("this system does not tell the host's identity (/proc/sys/kernel/random/boot_id)");
        }
        SameHostOffer offer;
        try {
            offer = SameHostOffer.decode(ask(flight, ticket, options, timeout));
        } catch (FlightRuntimeException e) {
            return Outcome.fallback("the server does not share the stream locally: " + e.status().code() + " " + e.status().description());
        } catch (IllegalArgumentException e) {
            return Outcome.fallback("the server's answer to " + DeviceFlightProducer.SHARE_ACTION + " is malformed: " + e.getMessage());
        }
        if (!offer.host().equals(host.get())) {
            return Outcome.fallback("the server runs on another host or as another user: its identity \"" + abbreviated(offer.host())
                    + "\" is not this process's \"" + host.get() + "\"");
        }
        return connect(offer, timeout, devices);
    }

    private static byte[] ask(FlightClient flight, Ticket ticket, CallOption[] options, Duration timeout) {
        CallOption[] all = Arrays.copyOf(options, options.length + 1);
        all[options.length] = CallOptions.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Iterator<Result> results = flight.doAction(new Action(DeviceFlightProducer.SHARE_ACTION, ticket.getBytes()), all);
        if (!results.hasNext()) {
            throw new IllegalArgumentException("the server answered with no result");
        }
        byte[] body = results.next().getBody();
        for (int extra = 0; results.hasNext(); extra++) {
            if (extra == MAX_RESULTS) {
                throw new IllegalArgumentException("the server answered with more than " + MAX_RESULTS + " results");
            }
            results.next();
        }
        return body;
    }

    private static Outcome connect(SameHostOffer offer, Duration timeout, Devices devices) {
        CompletableFuture<ShareClient> connecting = CompletableFuture.supplyAsync(
                () -> ShareClient.connect(offer.socket(), devices.cpu(), ReceiveOptions.defaults()),
                task -> Thread.ofPlatform().daemon().name("quiver-flight-share-connect").start(task));
        try {
            return new Outcome(connecting.get(timeout.toMillis(), TimeUnit.MILLISECONDS), null);
        } catch (TimeoutException e) {
            connecting.thenAccept(ShareClient::close);   // a connection made late is closed; one never made ends with its peer
            return Outcome.fallback("the server's socket " + offer.socket() + " did not complete the handshake within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            return Outcome.fallback("cannot receive through the server's socket: " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connecting.thenAccept(ShareClient::close);
            return Outcome.fallback("interrupted while connecting to the server's socket " + offer.socket());
        }
    }

    private static String abbreviated(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
