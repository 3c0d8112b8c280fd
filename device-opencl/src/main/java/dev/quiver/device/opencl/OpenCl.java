package dev.quiver.device.opencl;

import dev.quiver.spi.DriverStartLock;
import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.VendorLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * One loaded OpenCL library (normally the ICD loader {@code libOpenCL.so.1}) with every {@link ClFunction}
 * bound through the shared binding layer ({@link VendorLibrary}, {@link Bindings}), and typed wrappers that
 * turn failures into {@link OpenClException}. The library stays loaded for the life of the process.
 * Thread-safe: OpenCL API calls are thread-safe, and this class keeps no mutable state of its own.
 */
final class OpenCl {
    /** The ICD loader's soname. */
    static final String LOADER = "libOpenCL.so.1";

    private final String library;
    private final Bindings<ClFunction> api;
    private final dev.quiver.spi.LoadedLibrary loaded;
    private final MarkerForwarding forwarding = new MarkerForwarding(this);

    private OpenCl(String library, Bindings<ClFunction> api, dev.quiver.spi.LoadedLibrary loaded) {
        this.library = library;
        this.api = api;
        this.loaded = loaded;
    }

    /**
     * Loads {@code library} and binds every function of the table.
     *
     * @param library a library name for the dynamic linker, or a path
     * @return the bindings
     * @throws BackendUnavailableException if the library cannot be loaded or lacks a function
     */
    static OpenCl load(String library) {
        VendorLibrary loaded;
        try {
            loaded = VendorLibrary.loadFirst(List.of(library));
        } catch (VendorLibrary.NotFoundException e) {
            throw new BackendUnavailableException(e.getMessage());
        }
        try {
            return new OpenCl(library, new Bindings<>(loaded.bindAll(ClFunction.class), OpenClError.CL_SUCCESS.code(),
                    (calls, function, code) -> new OpenClException(function.name(), code, "")), loaded.loaded("clGetPlatformIDs"));
        } catch (VendorLibrary.NotFoundException e) {
            throw new BackendUnavailableException(e.getMessage() + " (an ICD loader for OpenCL 2.0 or later is needed)");
        }
    }

    /** @return the name or path the library was loaded from */
    String library() {
        return library;
    }

    /** @return the library as devices report it: its name, file and symbols */
    dev.quiver.spi.LoadedLibrary loaded() {
        return loaded;
    }

    /** @return the completion forwarding from markers to user events over this library */
    MarkerForwarding forwarding() {
        return forwarding;
    }

    /**
     * @param function one of the {@code clGet*Info} functions, which share one signature
     * @return that function as a query for {@link ClInfo}
     */
    ClInfo.Query info(ClFunction function) {
        return (object, param, size, value, sizeRet) ->
                api.result(function, h -> (int) h.invokeExact(object, param, size, value, sizeRet));
    }

    /**
     * {@return the status of {@code clGetPlatformIDs}, unchecked (no platform is a normal state)}; the ICD
     * loader and the drivers load their libraries in the first call, so it runs in
     * {@link DriverStartLock#loading}
     */
    int getPlatformIDs(int entries, MemorySegment platforms, MemorySegment count) {
        return DriverStartLock.loading(() -> api.result(ClFunction.clGetPlatformIDs, h -> (int) h.invokeExact(entries, platforms, count)));
    }

    /** {@return the status of {@code clGetDeviceIDs}, unchecked (no device is a normal state)}; in {@link DriverStartLock#loading} */
    int getDeviceIDs(MemorySegment platform, long type, int entries, MemorySegment devices, MemorySegment count) {
        return DriverStartLock.loading(() -> api.result(ClFunction.clGetDeviceIDs, h -> (int) h.invokeExact(platform, type, entries, devices, count)));
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
            return api.handleReturned(ClFunction.clCreateContext, (h, status) -> (MemorySegment) h.invokeExact(
                    properties, 1, devices, MemorySegment.NULL, MemorySegment.NULL, status));
        }
    }

    /**
     * @param withProperties whether the platform has {@code clCreateCommandQueueWithProperties} (OpenCL 2.0+)
     * @return a new in-order queue, owned by the caller
     */
    MemorySegment createQueue(MemorySegment context, MemorySegment device, boolean withProperties) {
        if (withProperties) {
            return api.handleReturned(ClFunction.clCreateCommandQueueWithProperties,
                    (h, status) -> (MemorySegment) h.invokeExact(context, device, MemorySegment.NULL, status));
        }
        return api.handleReturned(ClFunction.clCreateCommandQueue,
                (h, status) -> (MemorySegment) h.invokeExact(context, device, 0L, status));
    }

    void retainContext(MemorySegment context) {
        onObject(ClFunction.clRetainContext, context);
    }

    void releaseContext(MemorySegment context) {
        onObject(ClFunction.clReleaseContext, context);
    }

    void retainQueue(MemorySegment queue) {
        onObject(ClFunction.clRetainCommandQueue, queue);
    }

    void releaseQueue(MemorySegment queue) {
        onObject(ClFunction.clReleaseCommandQueue, queue);
    }

    void flush(MemorySegment queue) {
        onObject(ClFunction.clFlush, queue);
    }

    void finish(MemorySegment queue) {
        onObject(ClFunction.clFinish, queue);
    }

    // ---- memory -------------------------------------------------------------------------------

    /** @return a new read-write buffer, owned by the caller */
    MemorySegment createBuffer(MemorySegment context, long byteSize) {
        return createBuffer(context, ClConstants.CL_MEM_READ_WRITE, byteSize, "");
    }

    /** @return a new read-write buffer the implementation allocates in host memory it can reach fast, owned by the caller */
    MemorySegment createHostBuffer(MemorySegment context, long byteSize) {
        return createBuffer(context, ClConstants.CL_MEM_READ_WRITE | ClConstants.CL_MEM_ALLOC_HOST_PTR, byteSize,
                " of host memory (CL_MEM_ALLOC_HOST_PTR)");
    }

    private MemorySegment createBuffer(MemorySegment context, long flags, long byteSize, String what) {
        Bindings.Returned created = api.returned(ClFunction.clCreateBuffer, (h, status) -> (MemorySegment) h.invokeExact(
                context, flags, byteSize, MemorySegment.NULL, status));
        check(ClFunction.clCreateBuffer, created.result(), "cannot allocate " + byteSize + " bytes" + what);
        return created.handle();
    }

    /** Maps all of {@code buffer} for reading and writing, blocking until the host may use it; @return its host address */
    MemorySegment mapBuffer(MemorySegment queue, MemorySegment buffer, long byteSize) {
        Bindings.Returned mapped = api.returned(ClFunction.clEnqueueMapBuffer, (h, status) -> (MemorySegment) h.invokeExact(
                queue, buffer, ClConstants.CL_TRUE, ClConstants.CL_MAP_READ | ClConstants.CL_MAP_WRITE, 0L, byteSize,
                0, MemorySegment.NULL, MemorySegment.NULL, status));
        check(ClFunction.clEnqueueMapBuffer, mapped.result(), "cannot map " + byteSize + " bytes");
        return mapped.handle();
    }

    /** Enqueues the unmapping of what {@link #mapBuffer} mapped. */
    void unmap(MemorySegment queue, MemorySegment buffer, MemorySegment mapped) {
        int code = api.result(ClFunction.clEnqueueUnmapMemObject, h -> (int) h.invokeExact(queue, buffer, mapped, 0,
                MemorySegment.NULL, MemorySegment.NULL));
        check(ClFunction.clEnqueueUnmapMemObject, code, "cannot unmap 0x" + Long.toHexString(mapped.address()));
    }

    void releaseMemObject(MemorySegment buffer) {
        onObject(ClFunction.clReleaseMemObject, buffer);
    }

    /**
     * Enqueues a non-blocking read of {@code host.byteSize()} bytes at {@code offset} of {@code buffer}; nothing
     * for zero bytes.
     *
     * @throws IllegalArgumentException if {@code host} is not writable native memory or {@code offset} is negative
     */
    void enqueueRead(MemorySegment queue, MemorySegment buffer, long offset, MemorySegment host) {
        requireHost(host, "destination");
        if (host.isReadOnly()) {
            throw new IllegalArgumentException("destination is read-only");
        }
        requireOffset(offset);
        if (host.byteSize() == 0) {
            return;
        }
        int code = api.result(ClFunction.clEnqueueReadBuffer, h -> (int) h.invokeExact(queue, buffer, ClConstants.CL_FALSE,
                offset, host.byteSize(), host, 0, MemorySegment.NULL, MemorySegment.NULL));
        check(ClFunction.clEnqueueReadBuffer, code, host.byteSize() + " bytes at offset " + offset);
    }

    /**
     * Enqueues a non-blocking write of {@code host} to {@code offset} of {@code buffer}; nothing for zero bytes.
     *
     * @throws IllegalArgumentException if {@code host} is not native memory or {@code offset} is negative
     */
    void enqueueWrite(MemorySegment queue, MemorySegment buffer, long offset, MemorySegment host) {
        requireHost(host, "source");
        requireOffset(offset);
        if (host.byteSize() == 0) {
            return;
        }
        int code = api.result(ClFunction.clEnqueueWriteBuffer, h -> (int) h.invokeExact(queue, buffer, ClConstants.CL_FALSE,
                offset, host.byteSize(), host, 0, MemorySegment.NULL, MemorySegment.NULL));
        check(ClFunction.clEnqueueWriteBuffer, code, host.byteSize() + " bytes at offset " + offset);
    }

    /**
     * Enqueues a copy between two buffers of one context; nothing for zero bytes.
     *
     * @throws IllegalArgumentException if an offset or the count is negative
     */
    void enqueueCopy(MemorySegment queue, MemorySegment source, long sourceOffset, MemorySegment destination,
                     long destinationOffset, long byteCount) {
        requireOffset(sourceOffset);
        requireOffset(destinationOffset);
        if (byteCount < 0) {
            throw new IllegalArgumentException("byteCount is negative: " + byteCount);
        }
        if (byteCount == 0) {
            return;
        }
        int code = api.result(ClFunction.clEnqueueCopyBuffer, h -> (int) h.invokeExact(queue, source, destination,
                sourceOffset, destinationOffset, byteCount, 0, MemorySegment.NULL, MemorySegment.NULL));
        check(ClFunction.clEnqueueCopyBuffer, code, byteCount + " bytes from offset " + sourceOffset
                + " to offset " + destinationOffset);
    }

    private static void requireHost(MemorySegment memory, String what) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException(what + " must be native host memory, not a heap segment");
        }
    }

    private static void requireOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset is negative: " + offset);
        }
    }

    // ---- events -------------------------------------------------------------------------------

    /** @return the event of a new marker on {@code queue}, owned by the caller */
    MemorySegment enqueueMarker(MemorySegment queue) {
        return api.handleOut(ClFunction.clEnqueueMarkerWithWaitList,
                (h, event) -> (int) h.invokeExact(queue, 0, MemorySegment.NULL, event));
    }

    /** Makes later commands on {@code queue} wait for {@code event}. */
    void enqueueBarrier(MemorySegment queue, MemorySegment event) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment list = arena.allocateFrom(ADDRESS, event);
            api.check(ClFunction.clEnqueueBarrierWithWaitList, h -> (int) h.invokeExact(queue, 1, list, MemorySegment.NULL));
        }
    }

    void waitForEvent(MemorySegment event) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment list = arena.allocateFrom(ADDRESS, event);
            api.check(ClFunction.clWaitForEvents, h -> (int) h.invokeExact(1, list));
        }
    }

    /** @return {@code CL_COMPLETE}, {@code CL_RUNNING}, {@code CL_SUBMITTED}, {@code CL_QUEUED} or a negative error */
    int eventStatus(MemorySegment event) {
        return ClInfo.uint(info(ClFunction.clGetEventInfo), event, ClConstants.CL_EVENT_COMMAND_EXECUTION_STATUS,
                "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)");
    }

    /** @return a new user event of {@code context}, owned by the caller */
    MemorySegment createUserEvent(MemorySegment context) {
        return api.handleReturned(ClFunction.clCreateUserEvent, (h, status) -> (MemorySegment) h.invokeExact(context, status));
    }

    /** @return the status {@code clSetUserEventStatus} returned; does not throw, for use in callbacks */
    int setUserEventStatus(MemorySegment event, int executionStatus) {
        return api.result(ClFunction.clSetUserEventStatus, h -> (int) h.invokeExact(event, executionStatus));
    }

    /** Registers {@code callback} for when {@code event} completes or fails. */
    void setCompletionCallback(MemorySegment event, MemorySegment callback, MemorySegment userData) {
        api.check(ClFunction.clSetEventCallback, h -> (int) h.invokeExact(event, ClConstants.CL_COMPLETE, callback, userData));
    }

    void retainEvent(MemorySegment event) {
        onObject(ClFunction.clRetainEvent, event);
    }

    /** @return the status {@code clReleaseEvent} returned; does not throw, for use in callbacks */
    int releaseEvent(MemorySegment event) {
        return api.result(ClFunction.clReleaseEvent, h -> (int) h.invokeExact(event));
    }

    /** Calls a function whose one parameter is an OpenCL object ({@code clRetain*}, {@code clFlush}, ...). */
    private void onObject(ClFunction function, MemorySegment object) {
        api.check(function, h -> (int) h.invokeExact(object));
    }

    private static void check(ClFunction function, int code, String detail) {
        if (code != OpenClError.CL_SUCCESS.code()) {
            throw new OpenClException(function.name(), code, detail);
        }
    }
}
