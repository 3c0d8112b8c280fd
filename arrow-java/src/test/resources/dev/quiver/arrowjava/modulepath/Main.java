package bridge.user;

import dev.quiver.DeviceArray;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.arrowjava.VectorImport;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;

/** Moves an Arrow Java vector to Quiver and a Quiver array to Arrow Java, and prints what each side read. */
public final class Main {
    public static void main(String[] args) {
        try (BufferAllocator allocator = new RootAllocator()) {
            try (IntVector ids = new IntVector("id", allocator)) {
                ids.allocateNew(3);
                ids.set(0, 7);
                ids.setNull(1);
                ids.set(2, 9);
                ids.setValueCount(3);
                try (DeviceArray array = VectorExport.toDeviceArray(ids, allocator)) {
                    System.out.println("quiver read " + ArrayReader.of(array).values());
                }
            }
            try (FieldVector names = VectorImport.toFieldVector(HostVector.struct("row", HostVector.utf8("name", "a", null, "c")).toDeviceArray(), allocator, null)) {
                System.out.println("arrow java read " + names);
            }
            System.out.println("allocated after close " + allocator.getAllocatedMemory());
        }
    }
}
