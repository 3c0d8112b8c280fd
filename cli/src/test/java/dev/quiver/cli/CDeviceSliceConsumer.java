package dev.quiver.cli;

import dev.quiver.testkit.CLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C consumer of {@code device_slice_consumer.c}, compiled and linked with the OpenCL ICD loader at test
 * time: it describes the structs of an exported ArrowDeviceArray on a device, reads an int32 member of a
 * struct array out of its {@code cl_mem}, and releases exports. Thread-safe.
 */
final class CDeviceSliceConsumer {
    private static final CLibrary LIBRARY = CLibrary.fromResources(CDeviceSliceConsumer.class,
            List.of("device_slice_consumer.c"), List.of("-Wl,--no-as-needed", "-l:libOpenCL.so.1"));
    private static final MethodHandle DESCRIBE = LIBRARY.function("slice_describe",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG));
    private static final MethodHandle READ_INT32_MEMBER = LIBRARY.function("slice_read_int32_member",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    private static final MethodHandle RELEASE = LIBRARY.function("slice_release", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    /** Where the top-level fields start in a description: device_type, device_id and whether sync_event is set come first. */
    static final int LENGTH = 3;
    static final int OFFSET = 4;
    static final int NULL_COUNT = 5;
    static final int N_BUFFERS = 6;
    static final int FIRST_BUFFER = 7;

    private CDeviceSliceConsumer() {}

    /**
     * @param deviceArray an exported {@code struct ArrowDeviceArray*}
     * @return device_type, device_id, 1 if sync_event is set, then every node depth first: length, offset,
     *         null_count, n_buffers, the buffer handles, n_children, the children, then 1 and the dictionary or 0
     */
    static long[] describe(MemorySegment deviceArray) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG, 4096);
            long count = invoke(() -> (long) DESCRIBE.invokeExact(deviceArray, out, 4096L));
            if (count < 0) {
                throw new AssertionError("the description does not fit in 4096 values");
            }
            return Arrays.copyOf(out.toArray(JAVA_LONG), (int) count);
        }
    }

    /**
     * Reads member {@code member}, an int32 array, of the struct array on OpenCL that {@code deviceArray}
     * holds, from its {@code cl_mem} after waiting on the sync event.
     *
     * @return the values row by row, null where the member's validity says so
     */
    static List<Long> readInt32Member(MemorySegment deviceArray, int member, int rows) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment values = arena.allocate(JAVA_INT, Math.max(rows, 1));
            MemorySegment valid = arena.allocate(JAVA_BYTE, Math.max(rows, 1));
            int rc = invoke(() -> (int) READ_INT32_MEMBER.invokeExact(deviceArray, (long) member, values, valid));
            if (rc != 0) {
                throw new AssertionError("the C consumer could not read the cl_mem: error " + rc);
            }
            List<Long> read = new ArrayList<>();
            for (int j = 0; j < rows; j++) {
                read.add(valid.get(JAVA_BYTE, j) == 0 ? null : (long) values.getAtIndex(JAVA_INT, j));
            }
            return read;
        }
    }

    /** Calls the export's and the schema's release from C; 0 if both were live and are released now. */
    static int release(MemorySegment deviceArray, MemorySegment schema) {
        return invoke(() -> (int) RELEASE.invokeExact(deviceArray, schema));
    }

    private interface NativeCall<T> {
        T run() throws Throwable;
    }

    private static <T> T invoke(NativeCall<T> call) {
        try {
            return call.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
