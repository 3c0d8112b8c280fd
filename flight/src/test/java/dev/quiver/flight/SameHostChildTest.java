package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.host.ArrayReader;
import dev.quiver.share.ShareStatistics;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The same-host path across processes: a {@link TestServer} in a child JVM that shares locally hands its
 * streams to this JVM as memory-file handles, with the values the bytes path gives. Prints, once and
 * informally, how long the 256 MiB batch takes by each route, and zero-copy from the server's shared memory
 * (nothing is asserted of the times).
 */
class SameHostChildTest {
    @Test
    void aServerInAnotherProcessSharesItsStreamsWithTheValuesOfTheBytesPath() throws Exception {
        try (ChildServer server = ChildServer.start("--share-locally");
             BufferAllocator allocator = new RootAllocator();
             DeviceFlightClient sharing = DeviceFlightClient.builder(server.location(), allocator).preferSameHost(true).build();
             DeviceFlightClient bytes = DeviceFlightClient.builder(server.location(), allocator).build()) {
            Ticket every = ticket(sharing, "every-type@cpu");
            List<String> shared;
            try (FetchedStream fetched = sharing.fetch(every, Devices.system().cpu())) {
                assertEquals(FetchedStream.Route.SHARED, fetched.route(), () -> fetched.fallbackReason().orElse(""));
                shared = values(fetched);
            }
            try (FetchedStream fetched = bytes.fetch(every, Devices.system().cpu())) {
                assertEquals(FetchedStream.Route.FETCHED, fetched.route());
                assertEquals(values(fetched), shared);
            }

            Ticket big = ticket(sharing, "big");
            long bytesNanos = timeBig(bytes, big, FetchedStream.Route.FETCHED, 0);
            long sharedNanos = timeBig(sharing, big, FetchedStream.Route.SHARED, 0);
            long zeroCopyNanos = timeBig(sharing, ticket(sharing, "big-in-arena"), FetchedStream.Route.SHARED, 1);
            System.out.printf("256 MiB batch from another process: %.0f ms as bytes over Flight, %.0f ms shared through the same-host socket"
                            + " (copied into shared memory by the server), %.0f ms shared zero-copy (kept in a SharedHostArena)%n",
                    bytesNanos / 1e6, sharedNanos / 1e6, zeroCopyNanos / 1e6);
        }
        Eventually.holds("every shared batch unmapped", () -> ShareStatistics.mappedRegions() == 0, ShareStatistics::mappedRegions);
    }

    private static Ticket ticket(DeviceFlightClient client, String name) {
        FlightInfo info = client.info(name);
        return info.getEndpoints().getFirst().getTicket();
    }

    /**
     * @param zeroCopy whether the batch should read the server's memory itself (1) or not (0)
     * @return nanoseconds from the fetch to the batch in hand, checked after the clock stops
     */
    private static long timeBig(DeviceFlightClient client, Ticket ticket, FetchedStream.Route route, int zeroCopy) {
        long start = System.nanoTime();
        try (FetchedStream fetched = client.fetch(ticket, Devices.system().cpu())) {
            assertEquals(route, fetched.route(), () -> fetched.fallbackReason().orElse(""));
            try (DeviceArray batch = fetched.stream().next()) {
                long elapsed = System.nanoTime() - start;
                assertEquals(zeroCopy, fetched.zeroCopyBatches());
                assertEquals(-1, LongBatches.firstWrongRow(batch, 0, TestServer.BIG_ROWS));
                assertEquals(false, fetched.stream().hasNext());
                return elapsed;
            }
        }
    }

    private static List<String> values(FetchedStream fetched) {
        List<String> out = new ArrayList<>();
        while (fetched.stream().hasNext()) {
            try (DeviceArray batch = fetched.stream().next()) {
                out.add(ArrayReader.of(batch).values().toString());
            }
        }
        return out;
    }
}
