package dev.quiver.cli.flight;

import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.FlightCompression;
import dev.quiver.flight.Tickets;
import dev.quiver.flight.ipc.ArrowIpcReading;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * The work of {@code quiver flight list} and {@code flight put}, kept out of their command classes: the other
 * commands run on the module path without Arrow Flight's jars, and picocli loads every command class to print
 * help or the version, so a command class must not name a Flight class. Runs on the calling thread.
 */
final class FlightCalls {
    private FlightCalls() {}

    /**
     * Prints one line per stream the server lists: {@code stream NAME ticket TICKET [rows N]}.
     *
     * @return 0, or 1 if the call failed (its reason printed to {@code err})
     */
    static int list(FlightFetching.Settings settings, PrintWriter out, PrintWriter err) throws Exception {
        try (BufferAllocator allocator = new RootAllocator(); DeviceFlightClient client = FlightFetching.connect(settings, allocator)) {
            for (FlightInfo info : client.listFlights()) {
                String name = String.join("/", info.getDescriptor().getPath());
                String ticket = info.getEndpoints().isEmpty() ? "(none)" : Tickets.describe(info.getEndpoints().getFirst().getTicket());
                out.println("stream " + name + " ticket " + ticket + (info.getRecords() >= 0 ? " rows " + info.getRecords() : ""));
            }
        } catch (FlightRuntimeException e) {
            err.println("quiver flight list: " + e.status().code() + ": " + e.getMessage());
            return 1;
        }
        out.flush();
        return 0;
    }

    /** {@return the codec a checked {@code --compression} value names} */
    static FlightCompression compression(String name) {
        return switch (name) {
            case "lz4" -> FlightCompression.LZ4_FRAME;
            case "zstd" -> FlightCompression.ZSTD;
            default -> FlightCompression.NONE;
        };
    }

    /**
     * Sends the batches of {@code file} under {@code name} and prints {@code stream NAME ticket TICKET}.
     *
     * @return 0, or 1 if the put failed (its reason printed to {@code err})
     */
    static int put(FlightFetching.Settings settings, FlightCompression compression, Path file, String name, PrintWriter out, PrintWriter err)
            throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             DeviceFlightClient client = FlightFetching.connect(settings, allocator, compression)) {
            DeviceArrayStream stream = ArrowIpcReading.fileOrStream(file, allocator);
            Ticket ticket;
            try {
                ticket = client.put(name, stream);
            } catch (RuntimeException e) {
                err.println("quiver flight put: " + FlightFetching.describe(e));
                return 1;
            }
            out.println("stream " + name + " ticket " + Tickets.describe(ticket));
            out.flush();
            return 0;
        }
    }
}
