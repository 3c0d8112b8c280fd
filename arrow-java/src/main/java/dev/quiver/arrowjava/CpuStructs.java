package dev.quiver.arrowjava;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.DeviceType;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C structs that pass between Arrow Java and Quiver, allocated with FFM: Arrow Java's C Data module
 * sees them as plain addresses ({@link ArrowArray#wrap}, {@link ArrowSchema#wrap}), which never own the
 * memory they wrap.
 */
final class CpuStructs {
    private CpuStructs() {}

    /**
     * @param arena where to allocate
     * @return a zeroed {@code struct ArrowDeviceArray} for the CPU: {@code device_type} CPU, {@code device_id}
     *         -1, {@code sync_event} NULL, {@code reserved} zero, its embedded array released (NULL release)
     */
    static MemorySegment cpuDeviceArray(Arena arena) {
        MemorySegment struct = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
        struct.set(JAVA_LONG, ArrowDeviceArrayLayout.DEVICE_ID, -1L);
        struct.set(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE, DeviceType.CPU.code());
        return struct;
    }

    /**
     * @param arena where to allocate
     * @return a zeroed (released) {@code struct ArrowSchema}
     */
    static MemorySegment schema(Arena arena) {
        return arena.allocate(ArrowSchemaLayout.LAYOUT);
    }

    /**
     * @param deviceArray a {@code struct ArrowDeviceArray}
     * @return Arrow Java's view of the {@code struct ArrowArray} embedded at its start
     */
    static ArrowArray embeddedArray(MemorySegment deviceArray) {
        return ArrowArray.wrap(deviceArray.address() + ArrowDeviceArrayLayout.ARRAY);
    }

    /**
     * @param schema a {@code struct ArrowSchema}
     * @return Arrow Java's view of it
     */
    static ArrowSchema wrapSchema(MemorySegment schema) {
        return ArrowSchema.wrap(schema.address());
    }

    /**
     * Releases what an export that failed half-way left live: the embedded array and the schema, each only
     * if its {@code release} is set.
     *
     * @param deviceArray a {@code struct ArrowDeviceArray}
     * @param schema      a {@code struct ArrowSchema}, or NULL
     * @param failure     the failure, to which faults of the releases are added
     */
    static void releaseLive(MemorySegment deviceArray, MemorySegment schema, Throwable failure) {
        try {
            if (!deviceArray.get(ADDRESS, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE).equals(MemorySegment.NULL)) {
                embeddedArray(deviceArray).release();
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
        try {
            if (!schema.equals(MemorySegment.NULL) && !schema.get(ADDRESS, ArrowSchemaLayout.RELEASE).equals(MemorySegment.NULL)) {
                wrapSchema(schema).release();
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
