package com.example.columns;

import dev.quiver.Device;
import dev.quiver.VendorLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcalls into the OpenCL library Quiver's backend loaded ({@link Device#vendorLibrary()}: the ICD loader, or
 * whatever the application configured), typed: the kernels run through the same loader and drivers as Quiver's
 * own calls. Every method may be called from any thread, as OpenCL allows (except that one {@code cl_kernel}'s
 * arguments must not be set from two threads at once). Handles passed in are borrowed; handles returned are
 * owned by the caller, who releases them.
 */
final class OpenClCalls {
    private static final int CL_PROGRAM_BUILD_LOG = 0x1183;

    private final Map<ClEntryPoint, MethodHandle> handles = new EnumMap<>(ClEntryPoint.class);

    /** Bindings by the library they bind, so that devices of one loader share them. */
    private static final Map<String, OpenClCalls> BOUND = new ConcurrentHashMap<>();

    private OpenClCalls(SymbolLookup library, String name) {
        Linker linker = Linker.nativeLinker();
        for (ClEntryPoint entry : ClEntryPoint.values()) {
            MemorySegment symbol = library.find(entry.name()).orElseThrow(() -> new ColumnKernelsException(
                    name + " exports no " + entry.name()));
            handles.put(entry, linker.downcallHandle(symbol, entry.descriptor()));
        }
    }

    /**
     * @param device an OPENCL device
     * @return bindings to the OpenCL library its backend loaded, made on first use
     * @throws ColumnKernelsException if the backend lends no library or it lacks an entry point
     */
    static OpenClCalls of(Device device) {
        VendorLibrary library = device.vendorLibrary().orElseThrow(() -> new ColumnKernelsException(
                device + ": its backend lends no OpenCL library"));
        return BOUND.computeIfAbsent(library.path().map(Object::toString).orElse(library.name()),
                key -> new OpenClCalls(library.lookup(), library.name()));
    }

    /** @return a new in-order command queue of {@code device} in {@code context}, owned by the caller */
    MemorySegment createCommandQueue(MemorySegment context, MemorySegment device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(JAVA_INT);
            MemorySegment queue = (MemorySegment) call(ClEntryPoint.clCreateCommandQueue, context, device, 0L, status);
            ClStatus.check(status.get(JAVA_INT, 0), ClEntryPoint.clCreateCommandQueue);
            return queue;
        }
    }

    /**
     * Compiles OpenCL C source for one device.
     *
     * @return the built program, owned by the caller
     * @throws ColumnKernelsException with the compiler's log if the build fails (the program is released)
     */
    MemorySegment buildProgram(MemorySegment context, MemorySegment device, String source) {
        MemorySegment program;
        try (Arena arena = Arena.ofConfined()) {
            byte[] text = source.getBytes(StandardCharsets.UTF_8);
            MemorySegment strings = arena.allocate(ADDRESS);
            strings.set(ADDRESS, 0, arena.allocateFrom(JAVA_BYTE, text));
            MemorySegment lengths = arena.allocateFrom(JAVA_LONG, text.length);
            MemorySegment status = arena.allocate(JAVA_INT);
            program = (MemorySegment) call(ClEntryPoint.clCreateProgramWithSource, context, 1, strings, lengths, status);
            ClStatus.check(status.get(JAVA_INT, 0), ClEntryPoint.clCreateProgramWithSource);
            MemorySegment devices = arena.allocateFrom(ADDRESS, device);
            int built = (int) call(ClEntryPoint.clBuildProgram, program, 1, devices, arena.allocateFrom(""),
                    MemorySegment.NULL, MemorySegment.NULL);
            if (built != 0) {
                String log = buildLog(program, device);
                release(ClEntryPoint.clReleaseProgram, program);
                throw ClStatus.failure(built, ClEntryPoint.clBuildProgram, "; build log:\n" + log);
            }
        }
        return program;
    }

    private String buildLog(MemorySegment program, MemorySegment device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_LONG);
            int status = (int) call(ClEntryPoint.clGetProgramBuildInfo, program, device, CL_PROGRAM_BUILD_LOG, 0L,
                    MemorySegment.NULL, size);
            if (status != 0 || size.get(JAVA_LONG, 0) == 0) {
                return "(no build log: " + status + ")";
            }
            MemorySegment log = arena.allocate(size.get(JAVA_LONG, 0));
            call(ClEntryPoint.clGetProgramBuildInfo, program, device, CL_PROGRAM_BUILD_LOG, log.byteSize(), log,
                    MemorySegment.NULL);
            return log.getString(0);
        }
    }

    /** @return the kernel {@code name} of a built program, owned by the caller */
    MemorySegment createKernel(MemorySegment program, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(JAVA_INT);
            MemorySegment kernel = (MemorySegment) call(ClEntryPoint.clCreateKernel, program, arena.allocateFrom(name), status);
            ClStatus.check(status.get(JAVA_INT, 0), ClEntryPoint.clCreateKernel);
            return kernel;
        }
    }

    /** Sets a {@code __global} buffer argument to a {@code cl_mem} handle. */
    void setBufferArg(MemorySegment kernel, int index, MemorySegment clMem) {
        try (Arena arena = Arena.ofConfined()) {
            setArg(kernel, index, arena.allocateFrom(ADDRESS, clMem));
        }
    }

    /** Sets a {@code long} or {@code ulong} argument. */
    void setLongArg(MemorySegment kernel, int index, long value) {
        try (Arena arena = Arena.ofConfined()) {
            setArg(kernel, index, arena.allocateFrom(JAVA_LONG, value));
        }
    }

    /** Sets an {@code int} argument. */
    void setIntArg(MemorySegment kernel, int index, int value) {
        try (Arena arena = Arena.ofConfined()) {
            setArg(kernel, index, arena.allocateFrom(JAVA_INT, value));
        }
    }

    private void setArg(MemorySegment kernel, int index, MemorySegment value) {
        int status = (int) call(ClEntryPoint.clSetKernelArg, kernel, index, value.byteSize(), value);
        if (status != 0) {
            throw ClStatus.failure(status, ClEntryPoint.clSetKernelArg, " (argument " + index + ")");
        }
    }

    /** Enqueues {@code kernel} over {@code globalSize} work items, the work-group size left to the runtime. */
    void enqueue(MemorySegment queue, MemorySegment kernel, long globalSize) {
        try (Arena arena = Arena.ofConfined()) {
            int status = (int) call(ClEntryPoint.clEnqueueNDRangeKernel, queue, kernel, 1, MemorySegment.NULL,
                    arena.allocateFrom(JAVA_LONG, globalSize), MemorySegment.NULL, 0, MemorySegment.NULL,
                    MemorySegment.NULL);
            ClStatus.check(status, ClEntryPoint.clEnqueueNDRangeKernel);
        }
    }

    /** Releases a command queue the caller owns. */
    void releaseCommandQueue(MemorySegment queue) {
        release(ClEntryPoint.clReleaseCommandQueue, queue);
    }

    /** Releases a kernel the caller owns. */
    void releaseKernel(MemorySegment kernel) {
        release(ClEntryPoint.clReleaseKernel, kernel);
    }

    /** Releases a program the caller owns. */
    void releaseProgram(MemorySegment program) {
        release(ClEntryPoint.clReleaseProgram, program);
    }

    private void release(ClEntryPoint entry, MemorySegment handle) {
        ClStatus.check((int) call(entry, handle), entry);
    }

    private Object call(ClEntryPoint entry, Object... arguments) {
        try {
            return handles.get(entry).invokeWithArguments(arguments);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(entry + " threw", t);
        }
    }
}
