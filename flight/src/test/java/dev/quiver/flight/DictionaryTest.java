package dev.quiver.flight;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.host.ArrayReader;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.Ticket;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dictionary-encoded columns over several batches: batches sharing their dictionaries (a later one a
 * prefix of the first) arrive on any device with every value right, both ways; a batch whose dictionary
 * changes sends the new one, which replaces the one before (the IPC stream format's replacement), so every
 * batch arrives with its own values.
 */
class DictionaryTest extends ClientFixture {

    @Test
    void sharedDictionariesLandOnVulkanWithEveryValue() {
        Device vulkan = Devices.system().get(DeviceType.VULKAN, 0);
        try (DeviceArrayStream stream = client.get(ticket("dictionary-shared"), vulkan)) {
            assertBatches(stream, DictionaryBatches.BATCHES, false);
        }
    }

    @Test
    void sharedDictionariesPutFromOpenClComeBackWithEveryValue() {
        Device opencl = Devices.system().get(DeviceType.OPENCL, 0);
        Ticket stored = client.put("dictionaries-put", CountingSource.stream(DictionaryBatches.schema(), DictionaryBatches.BATCHES,
                b -> DictionaryBatches.batch(b, false).toDeviceArray(), opencl));
        try (DeviceArrayStream stream = client.get(stored, Devices.system().cpu())) {
            assertBatches(stream, DictionaryBatches.BATCHES, false);
        }
    }

    @Test
    void oneCallPutAndGetOpenAndCloseTheirOwnConnections() throws InterruptedException {
        Ticket stored = DeviceFlightClient.put(SharedServer.get().location(), "dictionaries-one-call", CountingSource.stream(DictionaryBatches.schema(),
                DictionaryBatches.BATCHES, b -> DictionaryBatches.batch(b, false).toDeviceArray(), Devices.system().cpu()), allocator);
        try (DeviceArrayStream stream = DeviceFlightClient.get(SharedServer.get().location(), stored, Devices.system().get(DeviceType.OPENCL, 0), allocator)) {
            assertBatches(stream, DictionaryBatches.BATCHES, false);
        }
    }

    @Test
    void aChangedDictionaryReplacesTheOneBeforeAndEveryBatchKeepsItsValues() {
        try (DeviceArrayStream stream = client.get(ticket("dictionary-changing"), Devices.system().cpu())) {
            assertBatches(stream, DictionaryBatches.BATCHES, true);
            assertFalse(stream.hasNext(), "the stream ends after its batches");
        }
    }

    @Test
    void flightInfoCarriesTheValueTypeOfADictionaryColumnWithItsEncoding() {
        org.apache.arrow.vector.types.pojo.Field colour = client.info("dictionary-shared").getSchemaOptional().orElseThrow().getFields().getFirst();
        assertEquals(new org.apache.arrow.vector.types.pojo.ArrowType.Utf8(), colour.getType(), "the IPC form names the value type: " + colour);
        assertEquals(new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true), colour.getDictionary().getIndexType(), colour.toString());
        assertEquals(1, client.listFlights().stream()
                .filter(info -> info.getDescriptor().getPath().equals(java.util.List.of("dictionary-shared")))
                .filter(info -> info.getSchemaOptional().orElseThrow().getFields().getFirst().getType().equals(colour.getType()))
                .count(), "ListFlights reports the same schema");
    }

    private static Ticket ticket(String name) {
        return client.info(name).getEndpoints().getFirst().getTicket();
    }

    private static void assertBatches(DeviceArrayStream stream, int count, boolean changing) {
        for (int b = 0; b < count; b++) {
            assertTrue(stream.hasNext(), "batch " + b);
            try (DeviceArray batch = stream.next(); DeviceArray onHost = Copies.toHost(batch);
                 DeviceArray colours = onHost.child(0); DeviceArray sizes = onHost.child(1)) {
                assertEquals(DictionaryBatches.colours(b, changing), ArrayReader.of(colours).values(), "colours of batch " + b);
                assertEquals(DictionaryBatches.sizes(b, changing), ArrayReader.of(sizes).values(), "sizes of batch " + b);
            }
        }
    }
}
