package dev.quiver.flight;

import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.Result;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;

/**
 * What a test server made and released, as its {@code counters} action reports it.
 *
 * @param made        batches its sources made
 * @param closed      sources (streams) closed
 * @param liveExports Quiver structs exported and not yet released (the batches it keeps from puts among them)
 * @param allocated   bytes its Arrow Java allocator holds
 */
record ServerCounters(long made, long closed, long liveExports, long allocated) {

    String encode() {
        return made + " " + closed + " " + liveExports + " " + allocated;
    }

    /**
     * @param client  a client of the test server
     * @param options its credentials
     * @return the server's counters now
     */
    static ServerCounters of(FlightClient client, CallOption... options) {
        Iterator<Result> results = client.doAction(new Action(TestProducer.COUNTERS), options);
        String[] parts = new String(results.next().getBody(), StandardCharsets.UTF_8).split(" ");
        while (results.hasNext()) {
            results.next();
        }
        return new ServerCounters(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long.parseLong(parts[3]));
    }
}
