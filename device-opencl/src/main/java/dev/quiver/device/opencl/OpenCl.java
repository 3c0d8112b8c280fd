package dev.quiver.device.opencl;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * One loaded OpenCL library (normally the ICD loader {@code libOpenCL.so.1}) with a downcall handle for every
 * {@link ClFunction}, and thin typed wrappers that turn failures into {@link OpenClException}. The library
 * stays loaded for the life of the process. Thread-safe: OpenCL API calls are thread-safe, and this class
 * keeps no mutable state of its own.
 */
final class OpenCl {
    /** The ICD loader's soname. */
    static final String LOADER = "libOpenCL.so.1";

    private final String library;
    private final MethodHandle[] handles;
    private final MarkerForwarding forwarding = new MarkerForwarding(this);

    private OpenCl(String library, MethodHandle[] handles) {
        this.library = library;
        this.handles = handles;
    }

    /**
     * Loads {@code library} and binds every function of the table.
     *
     * @param library a library name for the dynamic linker, or a path
     * @return the bindings
     * @throws LibraryMissing if the library cannot be loaded or lacks a function
     */
    static OpenCl load(String library) {
        SymbolLookup lookup;
        try {
            lookup = SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException | IllegalCallerException e) {
            throw new LibraryMissing(library + " not found");
        }
        Linker linker = Linker.nativeLinker();
        ClFunction[] functions = ClFunction.values();
        MethodHandle[] handles = new MethodHandle[functions.length];
        List<String> missing = new ArrayList<>();
        for (ClFunction function : functions) {
            lookup.find(function.name()).ifPresentOrElse(
                    symbol -> handles[function.ordinal()] = linker.downcallHandle(symbol, function.descriptor),
                    () -> missing.add(function.name()));
        }
        if (!missing.isEmpty()) {
            throw new LibraryMissing(library + " lacks " + String.join(", ", missing)
                    + " (an ICD loader for OpenCL 2.0 or later is needed)");
        }
        return new OpenCl(library, handles);
    }

    /** The library cannot be used; the message is a probe reason. */
    static final class LibraryMissing extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LibraryMissing(String message) {
            super(message);
        }
    }

    /** @return the name or path the library was loaded from */
    String library() {
        return library;
    }

    /** @return the completion forwarding from markers to user events over this library */
    MarkerForwarding forwarding() {
        return forwarding;
    }

    private MethodHandle handle(ClFunction function) {
        return handles[function.ordinal()];
    }

    /** Rethrows what a downcall threw: unchecked as it is, anything else wrapped. Never returns. */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }

    // ---- raw calls: each returns the cl_int status, or takes an errcode_ret cell --------------

    int getPlatformIDs(int entries, MemorySegment platforms, MemorySegment count) {
        try {
            return (int) handle(ClFunction.clGetPlatformIDs).invokeExact(entries, platforms, count);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int getPlatformInfo(MemorySegment platform, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try {
            return (int) handle(ClFunction.clGetPlatformInfo).invokeExact(platform, param, size, value, sizeRet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int getDeviceIDs(MemorySegment platform, long type, int entries, MemorySegment devices, MemorySegment count) {
        try {
            return (int) handle(ClFunction.clGetDeviceIDs).invokeExact(platform, type, entries, devices, count);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int getDeviceInfo(MemorySegment device, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try {
            return (int) handle(ClFunction.clGetDeviceInfo).invokeExact(device, param, size, value, sizeRet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int getContextInfo(MemorySegment context, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try {
            return (int) handle(ClFunction.clGetContextInfo).invokeExact(context, param, size, value, sizeRet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int getCommandQueueInfo(MemorySegment queue, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try {
            return (int) handle(ClFunction.clGetCommandQueueInfo).invokeExact(queue, param, size, value, sizeRet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int getEventInfo(MemorySegment event, int param, long size, MemorySegment value, MemorySegment sizeRet) {
        try {
            return (int) handle(ClFunction.clGetEventInfo).invokeExact(event, param, size, value, sizeRet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- contexts and queues ------------------------------------------------------------------

    /** @return a new context for one device of {@code platform}, owned by the caller */
    MemorySegment createContext(MemorySegment platform, MemorySegment device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment properties = arena.allocate(ADDRESS, 3);
            properties.setAtIndex(ADDRESS, 0, MemorySegment.ofAddress(ClConstants.CL_CONTEXT_PLATFORM));
            properties.setAtIndex(ADDRESS, 1, platform);
            properties.setAtIndex(ADDRESS, 2, MemorySegment.NULL);
            MemorySegment devices = arena.allocateFrom(ADDRESS, device);
            MemorySegment error = arena.allocate(JAVA_INT);
            MemorySegment context = (MemorySegment) handle(ClFunction.clCreateContext)
                    .invokeExact(properties, 1, devices, MemorySegment.NULL, MemorySegment.NULL, error);
            OpenClException.check(error.get(JAVA_INT, 0), "clCreateContext");
            return context;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * @param withProperties whether the platform has {@code clCreateCommandQueueWithProperties} (OpenCL 2.0+)
     * @return a new in-order queue, owned by the caller
     */
    MemorySegment createQueue(MemorySegment context, MemorySegment device, boolean withProperties) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment error = arena.allocate(JAVA_INT);
            MemorySegment queue;
            String call;
            if (withProperties) {
                call = "clCreateCommandQueueWithProperties";
                queue = (MemorySegment) handle(ClFunction.clCreateCommandQueueWithProperties)
                        .invokeExact(context, device, MemorySegment.NULL, error);
            } else {
                call = "clCreateCommandQueue";
                queue = (MemorySegment) handle(ClFunction.clCreateCommandQueue).invokeExact(context, device, 0L, error);
            }
            OpenClException.check(error.get(JAVA_INT, 0), call);
            return queue;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    void retainContext(MemorySegment context) {
        status(ClFunction.clRetainContext, context);
    }

    void releaseContext(MemorySegment context) {
        status(ClFunction.clReleaseContext, context);
    }

    void retainQueue(MemorySegment queue) {
        status(ClFunction.clRetainCommandQueue, queue);
    }

    void releaseQueue(MemorySegment queue) {
        status(ClFunction.clReleaseCommandQueue, queue);
    }

    void flush(MemorySegment queue) {
        status(ClFunction.clFlush, queue);
    }

    void finish(MemorySegment queue) {
        status(ClFunction.clFinish, queue);
    }

    // ---- memory -------------------------------------------------------------------------------

    /** @return a new read-write buffer, owned by the caller */
    MemorySegment createBuffer(MemorySegment context, long byteSize) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment error = arena.allocate(JAVA_INT);
            MemorySegment buffer = (MemorySegment) handle(ClFunction.clCreateBuffer)
                    .invokeExact(context, ClConstants.CL_MEM_READ_WRITE, byteSize, MemorySegment.NULL, error);
            int code = error.get(JAVA_INT, 0);
            if (code != 0) {
                throw new OpenClException("clCreateBuffer", code, "cannot allocate " + byteSize + " bytes");
            }
            return buffer;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    void releaseMemObject(MemorySegment buffer) {
        status(ClFunction.clReleaseMemObject, buffer);
    }

    /** Enqueues a non-blocking read of {@code host.byteSize()} bytes at {@code offset} of {@code buffer}. */
    void enqueueRead(MemorySegment queue, MemorySegment buffer, long offset, MemorySegment host) {
        int code;
        try {
            code = (int) handle(ClFunction.clEnqueueReadBuffer).invokeExact(queue, buffer, ClConstants.CL_FALSE,
                    offset, host.byteSize(), host, 0, MemorySegment.NULL, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (code != 0) {
            throw new OpenClException("clEnqueueReadBuffer", code, host.byteSize() + " bytes at offset " + offset);
        }
    }

    /** Enqueues a non-blocking write of {@code host} to {@code offset} of {@code buffer}. */
    void enqueueWrite(MemorySegment queue, MemorySegment buffer, long offset, MemorySegment host) {
        int code;
        try {
            code = (int) handle(ClFunction.clEnqueueWriteBuffer).invokeExact(queue, buffer, ClConstants.CL_FALSE,
                    offset, host.byteSize(), host, 0, MemorySegment.NULL, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (code != 0) {
            throw new OpenClException("clEnqueueWriteBuffer", code, host.byteSize() + " bytes at offset " + offset);
        }
    }

    void enqueueCopy(MemorySegment queue, MemorySegment source, long sourceOffset, MemorySegment destination,
                     long destinationOffset, long byteCount) {
        int code;
        try {
            code = (int) handle(ClFunction.clEnqueueCopyBuffer).invokeExact(queue, source, destination, sourceOffset,
                    destinationOffset, byteCount, 0, MemorySegment.NULL, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (code != 0) {
            throw new OpenClException("clEnqueueCopyBuffer", code, byteCount + " bytes from offset " + sourceOffset
                    + " to offset " + destinationOffset);
        }
    }

    // ---- events -------------------------------------------------------------------------------

    /** @return the event of a new marker on {@code queue}, owned by the caller */
    MemorySegment enqueueMarker(MemorySegment queue) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment event = arena.allocate(ADDRESS);
            int code = (int) handle(ClFunction.clEnqueueMarkerWithWaitList).invokeExact(queue, 0, MemorySegment.NULL, event);
            OpenClException.check(code, "clEnqueueMarkerWithWaitList");
            return event.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Makes later commands on {@code queue} wait for {@code event}. */
    void enqueueBarrier(MemorySegment queue, MemorySegment event) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment list = arena.allocateFrom(ADDRESS, event);
            int code = (int) handle(ClFunction.clEnqueueBarrierWithWaitList).invokeExact(queue, 1, list, MemorySegment.NULL);
            OpenClException.check(code, "clEnqueueBarrierWithWaitList");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    void waitForEvent(MemorySegment event) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment list = arena.allocateFrom(ADDRESS, event);
            int code = (int) handle(ClFunction.clWaitForEvents).invokeExact(1, list);
            OpenClException.check(code, "clWaitForEvents");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return {@code CL_COMPLETE}, {@code CL_RUNNING}, {@code CL_SUBMITTED}, {@code CL_QUEUED} or a negative error */
    int eventStatus(MemorySegment event) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(JAVA_INT);
            OpenClException.check(getEventInfo(event, ClConstants.CL_EVENT_COMMAND_EXECUTION_STATUS, JAVA_INT.byteSize(),
                    status, MemorySegment.NULL), "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)");
            return status.get(JAVA_INT, 0);
        }
    }

    /** @return a new user event of {@code context}, owned by the caller */
    MemorySegment createUserEvent(MemorySegment context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment error = arena.allocate(JAVA_INT);
            MemorySegment event = (MemorySegment) handle(ClFunction.clCreateUserEvent).invokeExact(context, error);
            OpenClException.check(error.get(JAVA_INT, 0), "clCreateUserEvent");
            return event;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return the status {@code clSetUserEventStatus} returned; does not throw, for use in callbacks */
    int setUserEventStatus(MemorySegment event, int executionStatus) {
        try {
            return (int) handle(ClFunction.clSetUserEventStatus).invokeExact(event, executionStatus);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Registers {@code callback} for when {@code event} completes or fails. */
    void setCompletionCallback(MemorySegment event, MemorySegment callback, MemorySegment userData) {
        int code;
        try {
            code = (int) handle(ClFunction.clSetEventCallback).invokeExact(event, ClConstants.CL_COMPLETE, callback, userData);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        OpenClException.check(code, "clSetEventCallback");
    }

    void retainEvent(MemorySegment event) {
        status(ClFunction.clRetainEvent, event);
    }

    /** @return the status {@code clReleaseEvent} returned; does not throw, for use in callbacks */
    int releaseEvent(MemorySegment event) {
        try {
            return (int) handle(ClFunction.clReleaseEvent).invokeExact(event);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private void status(ClFunction function, MemorySegment object) {
        int code;
        try {
            code = (int) handle(function).invokeExact(object);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        OpenClException.check(code, function.name());
    }
}
