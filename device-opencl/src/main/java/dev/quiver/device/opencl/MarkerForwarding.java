package dev.quiver.device.opencl;

import dev.quiver.device.ffm.Once;
import dev.quiver.device.ffm.Upcalls;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Makes a user event follow a marker: when the marker completes, the user event is set to
 * {@code CL_COMPLETE}; when the marker fails, to the marker's negative status. This is how a
 * {@code cl_event} that exists before anything is enqueued (what {@code createEvent} must return) comes to
 * mean "the work enqueued before {@code recordEvent}".
 *
 * <p>The callback is an upcall that the OpenCL implementation calls from one of its own threads. It never
 * throws: failures are logged and counted. Its {@code user_data} is the user event handle itself, never a
 * Java reference. The upcall stub is made on first use ({@link Upcalls}) and lives as long as the process.
 * Thread-safe.
 */
final class MarkerForwarding {
    private static final System.Logger LOG = System.getLogger("dev.quiver.device.opencl");
    private static final AtomicLong FAILURES = new AtomicLong();
    /** The callback's C type, as {@code clSetEventCallback} in {@link ClFunction} declares it. */
    static final String CALLBACK_TYPE = "void (*)(cl_event, cl_int, void *)";
    /** The callback's FFM descriptor. */
    static final FunctionDescriptor CALLBACK = FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS);

    private final OpenCl cl;
    private final Once<MemorySegment> stub = new Once<>();

    MarkerForwarding(OpenCl cl) {
        this.cl = cl;
    }

    /**
     * Forwards the completion of {@code marker} to {@code userEvent}. Takes over the caller's reference to
     * {@code marker} (released once the callback ran, or now if registration fails) and holds its own
     * reference to {@code userEvent} until then, so the caller may release the user event at any time.
     *
     * @throws OpenClException if the callback cannot be registered; the marker is released
     */
    void forward(MemorySegment marker, MemorySegment userEvent) {
        MemorySegment callback = stub.get(() -> Upcalls.of(MethodHandles.lookup(), this, "completed", CALLBACK));
        cl.retainEvent(userEvent);
        try {
            cl.setCompletionCallback(marker, callback, userEvent);
        } catch (RuntimeException e) {
            cl.releaseEvent(userEvent);
            cl.releaseEvent(marker);
            throw e;
        }
    }

    /** @return how many callbacks failed in this process (an OpenCL call inside them returned an error) */
    static long failures() {
        return FAILURES.get();
    }

    /** The upcall: {@code void (cl_event marker, cl_int status, void *user_data)}. Never throws. */
    private void completed(MemorySegment marker, int status, MemorySegment userEvent) {
        try {
            int set = cl.setUserEventStatus(userEvent, status < 0 ? status : ClConstants.CL_COMPLETE);
            int releasedUser = cl.releaseEvent(userEvent);
            int releasedMarker = cl.releaseEvent(marker);
            if (set != 0 || releasedUser != 0 || releasedMarker != 0) {
                failed("clSetUserEventStatus: " + OpenClError.nameOf(set) + ", clReleaseEvent(user event): "
                        + OpenClError.nameOf(releasedUser) + ", clReleaseEvent(marker): " + OpenClError.nameOf(releasedMarker), null);
            }
        } catch (Throwable t) {
            failed("the marker completion callback threw", t);
        }
    }

    private static void failed(String message, Throwable cause) {
        try {
            FAILURES.incrementAndGet();
            LOG.log(System.Logger.Level.ERROR, "OpenCL event forwarding failed: " + message, cause);
        } catch (Throwable ignored) {
            // An upcall must not throw, not even from logging.
        }
    }
}
