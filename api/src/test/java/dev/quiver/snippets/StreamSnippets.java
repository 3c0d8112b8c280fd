package dev.quiver.snippets;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.List;

/** The examples in the documentation of package {@code dev.quiver.stream}, compiled with the tests. */
final class StreamSnippets {
    private StreamSnippets() {}

    static void export(Iterator<DeviceArray> batches, MemorySegment streamPointer) {
        // @start region="export"
        // batches: arrays on the CPU, of type int32; streamPointer: a struct ArrowDeviceArrayStream
        DeviceArrayStream.of(Field.of("v", ArrowType.integer(32, true), true), DeviceType.CPU, batches).exportTo(streamPointer);
        // the C consumer owns the stream now: it calls get_schema, get_next and finally release
        // @end
    }

    static void importFrom(MemorySegment streamPointer) {
        // @start region="import"
        try (DeviceArrayStream stream = DeviceArrayStream.importFrom(streamPointer)) {
            while (stream.hasNext()) {
                try (DeviceArray batch = stream.next()) {
                    System.out.println(batch.length() + " rows on " + batch.deviceType());
                }
            }
        }
        // @end
    }

    static DeviceArrayStream of(List<DeviceArray> batches, Device target) {
        // @start region="of"
        Field schema = batches.getFirst().field();
        DeviceArrayStream onHost = DeviceArrayStream.of(schema, DeviceType.CPU, batches.iterator());
        // each batch copied to the target as it is pulled, the host copy closed
        return onHost.map(schema, target.type(), batch -> {
            try (batch) {
                return Copies.toDevice(batch, target);
            }
        });
        // @end
    }
}
