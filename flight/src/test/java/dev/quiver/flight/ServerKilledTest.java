package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.stream.StreamException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server is killed (SIGKILL) in the middle of a stream: the client gets an exception that says the
 * stream broke off and how far it got, the batches it already received stay valid (every value checked
 * after the kill), and closing them releases all the client's memory.
 */
class ServerKilledTest {

    @Test
    void batchesReceivedBeforeTheServerDiedStayValid() throws Exception {
        List<DeviceArray> kept = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator(); ChildServer server = ChildServer.start()) {
            try (DeviceFlightClient client = DeviceFlightClient.builder(server.location(), allocator).build();
                 DeviceArrayStream stream = client.get(client.info("many").getEndpoints().getFirst().getTicket(), Devices.system().cpu())) {
                for (int b = 0; b < 3; b++) {
                    kept.add(stream.next());
                }
                server.kill();
                StreamException broken = assertThrows(StreamException.class, () -> {
                    while (stream.hasNext()) {
                        kept.add(stream.next());
                    }
                });
                assertTrue(broken.getMessage().contains("failed after " + kept.size() + " batch(es) arrived"), broken.getMessage());
                for (int b = 0; b < kept.size(); b++) {
                    assertEquals(-1, LongBatches.firstWrongRow(kept.get(b), b, TestServer.MANY_ROWS), "batch " + b + " after the kill");
                }
            } finally {
                kept.forEach(DeviceArray::close);
            }
            assertEquals(0, allocator.getAllocatedMemory(), "client memory after closing the batches");
        }
    }
}
