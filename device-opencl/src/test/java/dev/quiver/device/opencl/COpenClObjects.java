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
 * The C code of {@code opencl_objects.c}, compiled and linked with the ICD loader at test time: OpenCL used
 * directly on the handles a Quiver device hands out, to make the queues and events Quiver adopts and to read
 * their reference counts independently of Quiver's own bindings. Thread-safe (every call is a plain OpenCL
 * call).
 */
final class COpenClObjects {
    private static final CLibrary LIBRARY = CLibrary.fromResources(COpenClObjects.class, List.of("opencl_objects.c"),
            List.of("-Wl,--no-as-needed", "-l:libOpenCL.so.1"));
    private static final FunctionDescriptor ON_OBJECT = FunctionDescriptor.of(JAVA_INT, ADDRESS);
    private static final FunctionDescriptor ONE_OUT = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
    private static final MethodHandle QUEUE_OWNER = LIBRARY.function("objects_queue_owner",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle DEVICE_PLATFORM = LIBRARY.function("objects_device_platform", ONE_OUT);
    private static final MethodHandle CREATE_QUEUE = LIBRARY.function("objects_create_queue",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
    private static final MethodHandle CREATE_USER_EVENT = LIBRARY.function("objects_create_user_event", ONE_OUT);
    private static final MethodHandle COMPLETE_USER_EVENT = LIBRARY.function("objects_complete_user_event", ON_OBJECT);
    private static final MethodHandle ENQUEUE_MARKER = LIBRARY.function("objects_enqueue_marker", ONE_OUT);
    private static final MethodHandle EVENT_STATUS = LIBRARY.function("objects_event_status", ONE_OUT);
    private static final MethodHandle READ = LIBRARY.function("objects_read",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MethodHandle QUEUE_REFERENCES = LIBRARY.function("objects_queue_references", ONE_OUT);
    private static final MethodHandle EVENT_REFERENCES = LIBRARY.function("objects_event_references", ONE_OUT);
    private static final MethodHandle RETAIN_QUEUE = LIBRARY.function("objects_retain_queue", ON_OBJECT);
    private static final MethodHandle RELEASE_QUEUE = LIBRARY.function("objects_release_queue", ON_OBJECT);
    private static final MethodHandle RETAIN_EVENT = LIBRARY.function("objects_retain_event", ON_OBJECT);
    private static final MethodHandle RELEASE_EVENT = LIBRARY.function("objects_release_event", ON_OBJECT);

    /**
     * Where a queue belongs, as {@code clGetCommandQueueInfo} reports it.
     *
     * @param context {@code CL_QUEUE_CONTEXT}
     * @param device  {@code CL_QUEUE_DEVICE}
     */
    record Owner(MemorySegment context, MemorySegment device) {}

    private COpenClObjects() {}

    static Owner queueOwner(MemorySegment queue) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment context = arena.allocate(ADDRESS);
            MemorySegment device = arena.allocate(ADDRESS);
            check(Bindings.invoke(QUEUE_OWNER, h -> (int) h.invokeExact(queue, context, device)), "objects_queue_owner");
            return new Owner(context.get(ADDRESS, 0), device.get(ADDRESS, 0));
        }
    }

    static MemorySegment devicePlatform(MemorySegment device) {
        return handleOut(DEVICE_PLATFORM, device, "objects_device_platform");
    }

    /** @return a new queue of the context and device, owned by the caller ({@link #releaseQueue}) */
    static MemorySegment createQueue(MemorySegment context, MemorySegment device, boolean outOfOrder) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment queue = arena.allocate(ADDRESS);
            check(Bindings.invoke(CREATE_QUEUE, h -> (int) h.invokeExact(context, device, outOfOrder ? 1 : 0, queue)),
                    "objects_create_queue");
            return queue.get(ADDRESS, 0);
        }
    }

    /** @return a new user event of the context, owned by the caller ({@link #releaseEvent}) */
    static MemorySegment createUserEvent(MemorySegment context) {
        return handleOut(CREATE_USER_EVENT, context, "objects_create_user_event");
    }

    static void completeUserEvent(MemorySegment event) {
        onObject(COMPLETE_USER_EVENT, event, "objects_complete_user_event");
    }

    /** @return the event of a new marker on the queue (flushed), owned by the caller */
    static MemorySegment enqueueMarker(MemorySegment queue) {
        return handleOut(ENQUEUE_MARKER, queue, "objects_enqueue_marker");
    }

    /** @return {@code CL_EVENT_COMMAND_EXECUTION_STATUS} */
    static int eventStatus(MemorySegment event) {
        return intOut(EVENT_STATUS, event, "objects_event_status");
    }

    /** Reads {@code out.byteSize()} bytes at {@code offset} of a {@code cl_mem}, blocking, on {@code queue}. */
    static void read(MemorySegment queue, MemorySegment buffer, long offset, MemorySegment out) {
        check(Bindings.invoke(READ, h -> (int) h.invokeExact(queue, buffer, offset, out.byteSize(), out)), "objects_read");
    }

    /** @return {@code CL_QUEUE_REFERENCE_COUNT} */
    static int queueReferences(MemorySegment queue) {
        return intOut(QUEUE_REFERENCES, queue, "objects_queue_references");
    }

    /** @return {@code CL_EVENT_REFERENCE_COUNT} */
    static int eventReferences(MemorySegment event) {
        return intOut(EVENT_REFERENCES, event, "objects_event_references");
    }

    static void retainQueue(MemorySegment queue) {
        onObject(RETAIN_QUEUE, queue, "objects_retain_queue");
    }

    static void releaseQueue(MemorySegment queue) {
        onObject(RELEASE_QUEUE, queue, "objects_release_queue");
    }

    static void retainEvent(MemorySegment event) {
        onObject(RETAIN_EVENT, event, "objects_retain_event");
    }

    static void releaseEvent(MemorySegment event) {
        onObject(RELEASE_EVENT, event, "objects_release_event");
    }

    private static void onObject(MethodHandle function, MemorySegment object, String name) {
        check(Bindings.invoke(function, h -> (int) h.invokeExact(object)), name);
    }

    private static MemorySegment handleOut(MethodHandle function, MemorySegment object, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            check(Bindings.invoke(function, h -> (int) h.invokeExact(object, out)), name);
            return out.get(ADDRESS, 0);
        }
    }

    private static int intOut(MethodHandle function, MemorySegment object, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            check(Bindings.invoke(function, h -> (int) h.invokeExact(object, out)), name);
            return out.get(JAVA_INT, 0);
        }
    }

    private static void check(int code, String call) {
        assertEquals(0, code, call + " returned " + OpenClError.nameOf(code));
    }
}
