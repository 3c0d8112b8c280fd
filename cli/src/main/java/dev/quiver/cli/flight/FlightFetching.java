package dev.quiver.cli.flight;

import dev.quiver.cli.Progress;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.flight.Delivery;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.FlightCompression;
import dev.quiver.flight.FlightTransferException;
import dev.quiver.flight.Tickets;
import dev.quiver.flight.ipc.ArrowIpcWriting;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The work of {@code quiver flight get}: fetches one stream onto a device, batch by batch, each batch closed
 * (or written to an Arrow IPC file) as soon as it arrived, so memory holds a few batches whatever the stream's
 * size. Runs on the calling thread.
 */
public final class FlightFetching {
    private FlightFetching() {}

    /**
     * What to fetch and how.
     *
     * @param uri      the server
     * @param ticket   the ticket
     * @param device   where batches land (the command resolved its --device)
     * @param trust    certificates to trust, or null
     * @param user     user to log in as, or null
     * @param password its password
     * @param output   Arrow IPC file to write, or null
     */
    public record Settings(String uri, String ticket, Device device, Path trust, String user, String password, Path output) {
    }

    /**
     * @param settings what to fetch
     * @param out      receives the summary
     * @param err      receives the live progress (on a terminal) and errors
     * @return 0, or 1 if the call failed (refused, unreachable) or the stream broke off
     */
    public static int fetch(Settings settings, PrintWriter out, PrintWriter err) throws Exception {
        return fetch(settings, null, out, err);
    }

    /**
     * @param settings what to fetch; with {@code endpoints} given, its ticket is the name of the stream
     * @param endpoints null to fetch the ticket, else fetch every endpoint of the named stream at once, in this order
     * @param out      receives the summary: batches, rows, bytes and rate of all endpoints together
     * @param err      receives the live progress (on a terminal) and errors
     * @return 0, or 1 if a call failed (refused, unreachable) or the stream broke off
     */
    public static int fetch(Settings settings, Delivery endpoints, PrintWriter out, PrintWriter err) throws Exception {
        Device target = settings.device();
        Progress progress = new Progress(System.console() != null ? err : null);
        try (BufferAllocator allocator = new RootAllocator()) {
            return fetch(settings, endpoints, target, progress, allocator, out, err);
        } catch (FlightRuntimeException e) {
            err.println("quiver flight get: " + e.status().code() + ": " + e.getMessage());
            return 1;
        }
    }

    private static int fetch(Settings settings, Delivery endpoints, Device target, Progress progress, BufferAllocator allocator,
                             PrintWriter out, PrintWriter err) throws Exception {
        try (DeviceFlightClient client = connect(settings, allocator)) {
            FlightInfo info = endpoints == null ? null : client.info(settings.ticket());
            try (DeviceArrayStream fetched = info == null ? client.get(Tickets.parse(settings.ticket()), target) : client.get(info, target, endpoints);
                 DeviceArrayStream counted = fetched.map(fetched.schema(), fetched.deviceType(), batch -> {
                     progress.batch(batch.length(), client.bytesReceived());
                     return batch;
                 })) {
                if (settings.output() != null) {
                    ArrowIpcWriting.file(counted, settings.output(), allocator);
                } else {
                    while (counted.hasNext()) {
                        counted.next().close();
                    }
                }
            } catch (IOException | RuntimeException e) {
                // a server that goes away fails the call itself or the stream it is reading: the same line either way
                err.println("quiver flight get: " + describe(e) + (settings.output() == null ? ""
                        : "; nothing was written to " + settings.output() + " (it is written only when the whole stream arrived)"));
                return 1;
            }
            out.println(progress.summary(client.bytesReceived(), target.toString())
                    + (info == null ? "" : " from " + info.getEndpoints().size() + " endpoint(s) at once"));
            return 0;
        }
    }

    /**
     * @param failure what a fetch threw
     * @return one line: the Flight status where the failure carries one (a stream that broke off has it in its
     *         cause), then the message
     */
    static String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof FlightTransferException transfer) {
                return transfer.status().code() + ": " + transfer.getMessage();
            }
            if (t instanceof FlightRuntimeException flight) {
                return flight.status().code() + ": " + failure.getMessage();
            }
        }
        return failure.getMessage();
    }

    static DeviceFlightClient connect(Settings settings, BufferAllocator allocator) throws Exception {
        return connect(settings, allocator, FlightCompression.NONE);
    }

    /** {@return a client of the settings' server, logged in where they say, compressing what it puts with {@code compression}} */
    static DeviceFlightClient connect(Settings settings, BufferAllocator allocator, FlightCompression compression) throws Exception {
        DeviceFlightClient.Builder builder = DeviceFlightClient.builder(new Location(URI.create(settings.uri())), allocator).compression(compression);
        if (settings.trust() != null) {
            try (InputStream certificates = Files.newInputStream(settings.trust())) {
                builder.trustedCertificates(new java.io.ByteArrayInputStream(certificates.readAllBytes()));
            }
        }
        if (settings.user() != null) {
            builder.basicAuth(settings.user(), settings.password() == null ? "" : settings.password());
        }
        return builder.build();
    }
}
