package com.example.quickstart;

import dev.quiver.*;
import dev.quiver.abi.*;
import dev.quiver.host.*;
import java.lang.foreign.*;

public final class QuickStart {
    public static void main(String[] args) throws Exception {
        HostVector batch = HostVector.struct("batch",
                HostVector.int32("id", 1, 2, null),
                HostVector.utf8("name", "a", null, "c"));

        try (Arena arena = Arena.ofConfined()) {
            // The C side's struct ArrowDeviceArray and struct ArrowSchema (zeroed).
            MemorySegment deviceArray = ArrowDeviceArrayLayout.allocate(arena);
            MemorySegment schema = ArrowSchemaLayout.allocate(arena);

            try (DeviceArray onCpu = batch.toDeviceArray();
                 DeviceArray onDevice = Copies.toDevice(onCpu, Devices.system().preferred())) {
                // Hand it to C: the consumer owns the structs afterwards and calls their release.
                Interchange.exportDevice(onDevice, deviceArray, schema);
            }

            // Take an array from C (here, the one just handed out): validated, released exactly once on close().
            try (DeviceArray imported = Interchange.importDevice(deviceArray, schema);
                 DeviceArray onHost = Copies.toHost(imported)) {   // waits for the array's sync event first
                System.out.println(ArrayReader.of(onHost).values());
            }
        }
    }
}
