package dev.quiver.check;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Calls through the function pointers a producer hands over: its release callbacks, stream callbacks and
 * the producer function itself. The invokers are made on first use. Any thread.
 */
final class NativeCalls {
    private NativeCalls() {}

    private static final class Invokers {
        static final MethodHandle VOID_POINTER = Linker.nativeLinker().downcallHandle(FunctionDescriptor.ofVoid(ADDRESS));
        static final MethodHandle INT_POINTER = Linker.nativeLinker().downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle INT_POINTER_POINTER = Linker.nativeLinker().downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        static final MethodHandle POINTER_POINTER = Linker.nativeLinker().downcallHandle(FunctionDescriptor.of(ADDRESS, ADDRESS));
    }

    /** {@code void f(void*)}: a release callback. */
    static void release(MemorySegment function, MemorySegment struct) {
        try {
            Invokers.VOID_POINTER.invokeExact(function, struct);
        } catch (Throwable t) {
            throw new IllegalStateException("calling release at 0x" + Long.toHexString(function.address()) + " failed", t);
        }
    }

    /** {@code int f(void*)}. */
    static int call(MemorySegment function, MemorySegment argument) {
        try {
            return (int) Invokers.INT_POINTER.invokeExact(function, argument);
        } catch (Throwable t) {
            throw new IllegalStateException("calling 0x" + Long.toHexString(function.address()) + " failed", t);
        }
    }

    /** {@code int f(void*, void*)}. */
    static int call(MemorySegment function, MemorySegment first, MemorySegment second) {
        try {
            return (int) Invokers.INT_POINTER_POINTER.invokeExact(function, first, second);
        } catch (Throwable t) {
            throw new IllegalStateException("calling 0x" + Long.toHexString(function.address()) + " failed", t);
        }
    }

    /** {@code const char* f(void*)}: {@code get_last_error}. */
    static MemorySegment callForPointer(MemorySegment function, MemorySegment argument) {
        try {
            return (MemorySegment) Invokers.POINTER_POINTER.invokeExact(function, argument);
        } catch (Throwable t) {
            throw new IllegalStateException("calling 0x" + Long.toHexString(function.address()) + " failed", t);
        }
    }
}
