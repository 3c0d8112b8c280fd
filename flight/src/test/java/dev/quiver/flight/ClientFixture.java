package dev.quiver.flight;

import dev.quiver.Diagnostics;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A client of the {@link SharedServer} for each test class, with its own allocator, and the check after the
 * class that both sides released everything: no Arrow Java memory left on the client or the server (whose
 * kept puts are on OpenCL), and no Quiver export of the client unreleased.
 */
abstract class ClientFixture {
    static BufferAllocator allocator;
    static DeviceFlightClient client;
    private static long exportsBefore;

    @BeforeAll
    static void connect() {
        exportsBefore = Diagnostics.liveExports();
        allocator = new RootAllocator();
        client = DeviceFlightClient.builder(SharedServer.get().location(), allocator).build();
    }

    @AfterAll
    static void everythingReleased() throws InterruptedException {
        Eventually.holds("the server releasing every batch it served", () -> serverCounters().allocated() == 0, ClientFixture::serverCounters);
        client.close();
        assertEquals(0, allocator.getAllocatedMemory(), "client memory still allocated:\n" + allocator.toVerboseString());
        allocator.close();
        assertEquals(exportsBefore, Diagnostics.liveExports(), "Quiver exports never released");
    }

    /** @return the shared server's counters now */
    static ServerCounters serverCounters() {
        return ServerCounters.of(client.flightClient(), client.callOptions());
    }
}
