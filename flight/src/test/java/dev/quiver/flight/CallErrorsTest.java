package dev.quiver.flight;

import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.stream.StreamException;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Ticket;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a caller learns when a call fails: a fetch past its deadline ends with the stream's error carrying a
 * {@link FlightTransferException} whose status is {@code TIMED_OUT}; a command descriptor is refused by name,
 * not as bytes.
 */
class CallErrorsTest extends ClientFixture {

    @Test
    void aFetchPastItsDeadlineEndsWithTimedOutAsTheCause() {
        Ticket many = client.info("many").getEndpoints().getFirst().getTicket();
        try (DeviceArrayStream stream = client.get(many, Devices.system().cpu(), CallOptions.timeout(300, TimeUnit.MILLISECONDS))) {
            StreamException ended = assertThrows(StreamException.class, () -> {
                while (stream.hasNext()) {
                    stream.next().close();
                }
            });
            FlightTransferException cause = assertInstanceOf(FlightTransferException.class, ended.getCause(), ended.toString());
            assertEquals(FlightStatusCode.TIMED_OUT, cause.status().code(), cause.toString());
            assertFalse(ended.getMessage().contains("get_next: get_next"), ended.getMessage());
        }
    }

    @Test
    void aCommandDescriptorIsRefusedByName() {
        FlightRuntimeException refused = assertThrows(FlightRuntimeException.class, () ->
                client.flightClient().getInfo(FlightDescriptor.command("SELECT 1".getBytes(StandardCharsets.UTF_8)), client.callOptions()));
        assertEquals(FlightStatusCode.INVALID_ARGUMENT, refused.status().code());
        assertTrue(refused.getMessage().contains("a command (8 bytes)"), refused.getMessage());
    }
}
