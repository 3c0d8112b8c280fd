package dev.quiver.types;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.CLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** The C consumer/producer of every type ({@code deep_copy.c}); thread-safe. */
final class DeepCopyLibrary {
    private static final CLibrary LIBRARY = CLibrary.fromResources(DeepCopyLibrary.class, List.of("deep_copy.c"), List.of());
    private static final MethodHandle COPY = LIBRARY.function("dc_copy", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle CAPACITY = LIBRARY.function("dc_capacity", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
    private static final MethodHandle ARRAYS_RELEASED = LIBRARY.function("dc_arrays_released", FunctionDescriptor.of(JAVA_LONG));
    private static final MethodHandle SCHEMAS_RELEASED = LIBRARY.function("dc_schemas_released", FunctionDescriptor.of(JAVA_LONG));
    private static final String[] ERRORS = {"ok", "input already released", "format unknown to C", "n_buffers wrong for the format",
        "n_children differs from the schema", "out of memory"};

    private DeepCopyLibrary() {}

    /**
     * Exports a shared view of {@code array} to the C deep copier (which releases it), imports the copy C
     * made as a CPU array, validates it against the capacities C allocated and reads its values.
     */
    static List<Object> valuesThroughC(DeviceArray array) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment exported = ArrowDeviceArrayLayout.allocate(arena);
            MemorySegment schema = ArrowSchemaLayout.allocate(arena);
            Interchange.exportShared(array, exported, schema);
            MemorySegment copy = ArrowDeviceArrayLayout.allocate(arena);
            MemorySegment copySchema = ArrowSchemaLayout.allocate(arena);
            copy(exported.asSlice(0, ArrowArrayLayout.LAYOUT.byteSize()), schema, copy, copySchema);
            copy.set(JAVA_LONG, ArrowDeviceArrayLayout.DEVICE_ID, -1);
            copy.set(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE, DeviceTypeCodes.CPU);
            try (DeviceArray imported = Interchange.importDevice(copy, copySchema, ImportOptions.on(Devices.cpuOnly()))) {
                Interchange.validateFull(imported, DeepCopyLibrary::capacity);
                return ArrayReader.of(imported).values();
            }
        }
    }

    /** Consumes (releases) the input structs in C and produces C-owned copies in the output structs. */
    static void copy(MemorySegment inArray, MemorySegment inSchema, MemorySegment outArray, MemorySegment outSchema) {
        int rc;
        try {
            rc = (int) COPY.invokeExact(inArray, inSchema, outArray, outSchema);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (rc != 0) {
            throw new AssertionError("the C consumer rejected the export: " + ERRORS[rc]);
        }
    }

    static long capacity(MemorySegment pointer) {
        try {
            return (long) CAPACITY.invokeExact(pointer);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static long arraysReleased() {
        try {
            return (long) ARRAYS_RELEASED.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static long schemasReleased() {
        try {
            return (long) SCHEMAS_RELEASED.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
