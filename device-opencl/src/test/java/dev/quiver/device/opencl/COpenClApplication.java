package dev.quiver.device.opencl;

import dev.quiver.device.ffm.Bindings;
import dev.quiver.testkit.CLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The C application of {@code opencl_app.c}, compiled and linked with the ICD loader at test time: it owns
 * a context and a queue, counts their references, and consumes exported arrays as a C consumer would.
 * Thread-safe (every call is a plain OpenCL call).
 */
final class COpenClApplication {
    private static final CLibrary LIBRARY = CLibrary.fromResources(COpenClApplication.class, List.of("opencl_app.c"),
            List.of("-Wl,--no-as-needed", "-l:libOpenCL.so.1"));
    private static final MethodHandle CREATE = LIBRARY.function("app_create", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle COUNTS = LIBRARY.function("app_reference_counts",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle RELEASE = LIBRARY.function("app_release", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle WAIT = LIBRARY.function("app_wait_sync_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle READ = LIBRARY.function("app_read",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));

    /** The application's context and queue. */
    record Objects(MemorySegment context, MemorySegment queue) {}

    /** Reference counts as OpenCL reports them. */
    record References(int context, int queue) {}

    private COpenClApplication() {}

    static Objects create(boolean outOfOrder) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment context = arena.allocate(ADDRESS);
            MemorySegment queue = arena.allocate(ADDRESS);
            check(Bindings.invoke(CREATE, h -> (int) h.invokeExact(outOfOrder ? 1 : 0, context, queue)), "app_create");
            return new Objects(context.get(ADDRESS, 0), queue.get(ADDRESS, 0));
        }
    }

    static References references(Objects objects) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment context = arena.allocate(JAVA_INT);
            MemorySegment queue = arena.allocate(JAVA_INT);
            check(Bindings.invoke(COUNTS, h -> (int) h.invokeExact(objects.context(), objects.queue(), context, queue)),
                    "app_reference_counts");
            return new References(context.get(JAVA_INT, 0), queue.get(JAVA_INT, 0));
        }
    }

    static void release(Objects objects) {
        check(Bindings.invoke(RELEASE, h -> (int) h.invokeExact(objects.context(), objects.queue())), "app_release");
    }

    /** @return the execution status C reads after waiting on the {@code cl_event*} */
    static int waitSyncEvent(MemorySegment syncEvent) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(JAVA_INT);
            check(Bindings.invoke(WAIT, h -> (int) h.invokeExact(syncEvent, status)), "app_wait_sync_event");
            return status.get(JAVA_INT, 0);
        }
    }

    static void read(MemorySegment queue, MemorySegment buffer, long offset, MemorySegment out) {
        check(Bindings.invoke(READ, h -> (int) h.invokeExact(queue, buffer, offset, out.byteSize(), out)), "app_read");
    }

    private static void check(int code, String call) {
        assertEquals(0, code, call + " returned " + OpenClError.nameOf(code));
    }
}
