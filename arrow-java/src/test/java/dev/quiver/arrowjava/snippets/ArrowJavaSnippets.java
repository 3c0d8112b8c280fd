package dev.quiver.arrowjava.snippets;

import dev.quiver.DeviceArray;
import dev.quiver.arrowjava.StreamImport;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.arrowjava.VectorImport;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.ipc.ArrowReader;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/** The examples in the documentation of package {@code dev.quiver.arrowjava}, compiled with the tests. */
final class ArrowJavaSnippets {
    private ArrowJavaSnippets() {}

    static void export() {
        // @start region="export"
        try (BufferAllocator allocator = new RootAllocator();
             IntVector ids = new IntVector("id", allocator)) {
            ids.allocateNew(3);
            ids.set(0, 1); ids.setNull(1); ids.set(2, 3);
            ids.setValueCount(3);
            try (DeviceArray array = VectorExport.toDeviceArray(ids, allocator)) {
                System.out.println(ArrayReader.of(array).values());   // [1, null, 3]
            }
        }
        // @end
    }

    static void importTo() {
        // @start region="import"
        try (BufferAllocator allocator = new RootAllocator();
             DeviceArray array = HostVector.int32("id", 1, null, 3).toDeviceArray();
             FieldVector vector = VectorImport.toFieldVector(array, allocator, null)) {
            System.out.println(vector);   // [1, null, 3]
        }
        // @end
    }

    static void stream(MemorySegment streamPointer) throws IOException {
        // @start region="stream"
        try (BufferAllocator allocator = new RootAllocator();
             ArrowReader reader = StreamImport.toArrowReader(DeviceArrayStream.importFrom(streamPointer), allocator)) {
            while (reader.loadNextBatch()) {
                System.out.println(reader.getVectorSchemaRoot().contentToTSVString());
            }
        }
        // @end
    }
}
