package dev.quiver.flight;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.stream.DeviceArrayStream;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** A 256 MiB batch through Flight, landed on OpenCL, every value checked on the way back. */
class BigBatchTest extends ClientFixture {

    @Test
    void aBatchOf256MibLandsOnOpenClIntact() {
        Device opencl = Devices.system().get(DeviceType.OPENCL, 0);
        try (DeviceArrayStream stream = client.get(client.info("big").getEndpoints().getFirst().getTicket(), opencl);
             DeviceArray batch = stream.next()) {
            assertEquals(DeviceType.OPENCL, batch.deviceType());
            assertEquals(256L << 20, batch.length() * Long.BYTES, "bytes of values");
            try (DeviceArray onHost = Copies.toHost(batch)) {
                assertEquals(-1, LongBatches.firstWrongRow(onHost, 0, TestServer.BIG_ROWS), "first wrong row");
            }
            assertFalse(stream.hasNext());
        }
    }
}
