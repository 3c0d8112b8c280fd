package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.Ticket;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client that stops early and a client that reads slowly, against a server streaming thousands of 1 MiB
 * batches: the server stops producing when the client cancels and releases everything it fetched; a slow
 * reader holds the server to a bounded number of batches ahead (backpressure, not buffering).
 */
class CancelAndBackpressureTest extends ClientFixture {
    /** Batches the server may run ahead of a slow reader: gRPC's 10 MiB send threshold, its windows and the pipelines. */
    private static final long MAX_AHEAD = 40;

    @Test
    void cancellingStopsTheServerAndReleasesItsArrays() throws InterruptedException {
        ServerCounters before = serverCounters();
        try (DeviceArrayStream stream = client.get(many(), Devices.system().cpu())) {
            for (int b = 0; b < 3; b++) {
                try (DeviceArray batch = stream.next()) {
                    assertEquals(-1, LongBatches.firstWrongRow(batch, b, TestServer.MANY_ROWS));
                }
            }
        }
        Eventually.holds("the server closing the cancelled stream and releasing its arrays", () -> {
            ServerCounters now = serverCounters();
            return now.closed() == before.closed() + 1 && now.liveExports() == before.liveExports() && now.allocated() == 0;
        }, ClientFixture::serverCounters);
        long made = serverCounters().made() - before.made();
        Thread.sleep(300);
        assertEquals(made, serverCounters().made() - before.made(), "batches made after the cancellation");
        assertTrue(made < TestServer.MANY_BATCHES, "the server stopped early: " + made);
    }

    @Test
    void aSlowReaderHoldsTheServerToAFewBatchesAhead() throws InterruptedException {
        ServerCounters before = serverCounters();
        long mostAhead = 0;
        try (DeviceArrayStream stream = client.get(many(), Devices.system().cpu())) {
            for (int b = 0; b < 30; b++) {
                try (DeviceArray batch = stream.next()) {
                    assertEquals(-1, LongBatches.firstWrongRow(batch, b, TestServer.MANY_ROWS));
                }
                Thread.sleep(40);
                mostAhead = Math.max(mostAhead, serverCounters().made() - before.made() - (b + 1));
            }
        }
        System.err.println("most batches ahead of a slow reader: " + mostAhead);
        assertTrue(mostAhead <= MAX_AHEAD, "the server ran " + mostAhead + " batches ahead of a slow reader");
        assertTrue(mostAhead > 0, "the server reads ahead at all");
        Eventually.holds("the server releasing the stream", () -> {
            ServerCounters now = serverCounters();
            return now.closed() == before.closed() + 1 && now.liveExports() == before.liveExports() && now.allocated() == 0;
        }, ClientFixture::serverCounters);
    }

    private static Ticket many() {
        return client.info("many").getEndpoints().getFirst().getTicket();
    }
}
