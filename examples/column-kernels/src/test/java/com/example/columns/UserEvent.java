package com.example.columns;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * An OpenCL user event ({@code clCreateUserEvent}) that a test completes by hand, to hold back work that
 * waits for it. Owned by whoever adopts it into Quiver (which releases it); {@link #complete} may be called
 * from any thread, once.
 */
final class UserEvent {
    private static final SymbolLookup OPENCL = SymbolLookup.libraryLookup("libOpenCL.so.1", Arena.global());
    private static final MethodHandle CREATE = Linker.nativeLinker().downcallHandle(
            OPENCL.find("clCreateUserEvent").orElseThrow(), FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle SET_STATUS = Linker.nativeLinker().downcallHandle(
            OPENCL.find("clSetUserEventStatus").orElseThrow(), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));

    private UserEvent() {
    }

    /** @return a new user event of {@code context}, not complete, owned by the caller */
    static MemorySegment create(MemorySegment context) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(JAVA_INT);
            MemorySegment event = (MemorySegment) CREATE.invokeExact(context, status);
            if (status.get(JAVA_INT, 0) != 0) {
                throw new AssertionError("clCreateUserEvent failed: " + status.get(JAVA_INT, 0));
            }
            return event;
        }
    }

    /** Sets {@code event} to {@code CL_COMPLETE}. */
    static void complete(MemorySegment event) throws Throwable {
        int status = (int) SET_STATUS.invokeExact(event, 0);
        if (status != 0) {
            throw new AssertionError("clSetUserEventStatus failed: " + status);
        }
    }
}
