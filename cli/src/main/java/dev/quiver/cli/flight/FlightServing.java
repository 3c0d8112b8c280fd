package dev.quiver.cli.flight;

import dev.quiver.cli.GeneratedBatches;
import dev.quiver.Device;
import dev.quiver.Devices;
import dev.quiver.flight.DeviceFlightProducer;
import dev.quiver.flight.DeviceFlightServer;
import dev.quiver.flight.FlightAuth;
import dev.quiver.flight.FlightCompression;
import dev.quiver.flight.Tickets;
import dev.quiver.flight.ipc.ArrowIpcReading;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * The work of {@code quiver flight serve}: a {@link DeviceFlightProducer} behind a {@link DeviceFlightServer}
 * (whose {@code DoGet} runs on Quiver's own data path), offering each file and the generated stream from the chosen device, until the process is stopped or the time is up.
 * Runs on the calling thread; Flight serves calls on its own threads.
 */
public final class FlightServing {
    private FlightServing() {}

    /**
     * What to serve and how.
     *
     * @param files         Arrow IPC files
     * @param generatedRows rows of the generated stream, 0 for none
     * @param batches       batches of the generated stream
     * @param device        where served batches are
     * @param putDevice     where put batches land
     * @param host          address to listen on
     * @param port          port, 0 for any
     * @param certificate   TLS certificate chain, or null for plain TCP
     * @param privateKey    TLS private key, or null
     * @param user          the user who must log in, or null for no authentication
     * @param password      that user's password
     * @param seconds       how long to serve, 0 for until stopped
     * @param endpoints     endpoints of the generated stream, each a contiguous run of its batches
     * @param compression   how the bodies of the batches sent are compressed
     */
    public record Settings(java.util.List<Path> files, long generatedRows, int batches, Device device, Device putDevice, String host, int port,
                           Path certificate, Path privateKey, String user, String password, long seconds,
                           int endpoints, FlightCompression compression) {
    }

    /**
     * @param settings what to serve
     * @param out      receives the address and one line per stream
     * @return the exit code
     */
    public static int serve(Settings settings, PrintWriter out) throws Exception {
        Devices devices = Devices.system();
        Device device = settings.device();
        try (GeneratedBatches generated = new GeneratedBatches(settings.generatedRows(), settings.batches());
             BufferAllocator allocator = new RootAllocator();
             DeviceFlightProducer producer = new DeviceFlightProducer(allocator, settings.putDevice(), devices)) {
            StringBuilder streams = new StringBuilder();
            for (Path file : settings.files()) {
                Field schema;
                try (DeviceArrayStream probe = ArrowIpcReading.fileOrStream(file, allocator)) {
                    schema = probe.schema();
                }
                Ticket ticket = producer.serve(file.getFileName().toString(), schema, -1, () -> OnDevice.copied(read(file, allocator), device));
                streams.append(line(file.getFileName().toString(), ticket, -1));
            }
            if (settings.generatedRows() > 0) {
                java.util.List<java.util.function.Supplier<DeviceArrayStream>> parts = new java.util.ArrayList<>();
                for (int e = 0; e < settings.endpoints(); e++) {
                    int from = (int) ((long) generated.batches() * e / settings.endpoints());
                    int to = (int) ((long) generated.batches() * (e + 1) / settings.endpoints());
                    parts.add(() -> OnDevice.copied(generatedStream(generated, from, to), device));
                }
                java.util.List<Ticket> tickets = producer.serve("generated", generated.schema(), settings.generatedRows(), parts);
                streams.append(line("generated", tickets.getFirst(), settings.generatedRows()).stripTrailing())
                        .append(tickets.size() > 1 ? " endpoints " + tickets.size() : "").append(System.lineSeparator());
            }
            boolean tls = settings.certificate() != null;
            Location location = tls ? Location.forGrpcTls(settings.host(), settings.port()) : Location.forGrpcInsecure(settings.host(), settings.port());
            DeviceFlightServer.Builder builder = DeviceFlightServer.builder(allocator, location, producer).compression(settings.compression());
            if (tls) {
                builder.useTls(settings.certificate().toFile(), settings.privateKey().toFile());
            }
            if (settings.user() != null) {
                builder.headerAuthenticator(FlightAuth.basicThenBearer(settings.user(), settings.password()));
            }
            try (DeviceFlightServer server = builder.build().start()) {
                out.printf("serving on %s://%s:%d from %s%n", tls ? "grpc+tls" : "grpc+tcp", settings.host(), server.getPort(), device);
                out.print(streams);
                out.flush();
                if (settings.seconds() > 0) {
                    server.awaitTermination(settings.seconds(), TimeUnit.SECONDS);
                } else {
                    server.awaitTermination();
                }
            }
        }
        return 0;
    }

    private static String line(String name, Ticket ticket, long rows) {
        return "stream " + name + " ticket " + Tickets.describe(ticket) + (rows >= 0 ? " rows " + rows : "") + System.lineSeparator();
    }

    private static DeviceArrayStream read(Path file, BufferAllocator allocator) {
        try {
            return ArrowIpcReading.fileOrStream(file, allocator);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static DeviceArrayStream generatedStream(GeneratedBatches generated, int from, int to) {
        return DeviceArrayStream.of(generated.schema(), dev.quiver.DeviceType.CPU,
                IntStream.range(from, to).mapToObj(generated::batch).iterator());
    }
}
