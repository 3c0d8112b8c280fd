package dev.quiver.internal.abi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Calls C function pointers a foreign side hands over (stream callbacks, release callbacks, a producer
 * function under check) and makes the upcall stubs of ours. Invokers are made on first use, never at class
 * initialisation of the API. The caller vouches that each function pointer has the C signature named by
 * the method it calls. Stateless; safe from any thread (the callee decides whether it is).
 */
public final class NativeCalls {
    /** {@code int f(void*)}: a producer function filling one struct. */
    public static final FunctionDescriptor INT_PTR = FunctionDescriptor.of(JAVA_INT, ADDRESS);
    /** {@code int f(void*, void*)}: get_schema, get_next, extract_data, on_schema. */
    public static final FunctionDescriptor INT_PTR_PTR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
    /** {@code int f(void*, void*, const char*)}: on_next_task. */
    public static final FunctionDescriptor INT_PTR_PTR_PTR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    /** {@code const char* f(void*)}: get_last_error. */
    public static final FunctionDescriptor PTR_PTR = FunctionDescriptor.of(ADDRESS, ADDRESS);
    /** {@code void f(void*)}: release, cancel. */
    public static final FunctionDescriptor VOID_PTR = FunctionDescriptor.ofVoid(ADDRESS);
    /** {@code void f(void*, int64_t)}: request. */
    public static final FunctionDescriptor VOID_PTR_LONG = FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG);
    /** {@code void f(void*, int, const char*, const char*)}: on_error. */
    public static final FunctionDescriptor VOID_PTR_INT_PTR_PTR = FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
    /**
     * {@code void f(void*)} for an upcall that takes its pointer as a raw address: the hot release callbacks.
     * A pointer and a 64-bit integer travel in the same register on every 64-bit calling convention the
     * linker supports, so C calls the stub exactly as {@link #VOID_PTR}; the upcall then makes no segment.
     */
    public static final FunctionDescriptor VOID_ADDRESS = FunctionDescriptor.ofVoid(JAVA_LONG);
    /** {@code int f(void*, void*)} with raw addresses, as {@link #VOID_ADDRESS} explains: get_schema, get_next. */
    public static final FunctionDescriptor INT_ADDRESS_ADDRESS = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG);

    private NativeCalls() {}

    /** The generic invokers, made once on first use. */
    private static final class Invokers {
        static final Linker LINKER = Linker.nativeLinker();
        static final MethodHandle INT_PTR = LINKER.downcallHandle(NativeCalls.INT_PTR);
        static final MethodHandle INT_PTR_PTR = LINKER.downcallHandle(NativeCalls.INT_PTR_PTR);
        static final MethodHandle INT_PTR_PTR_PTR = LINKER.downcallHandle(NativeCalls.INT_PTR_PTR_PTR);
        static final MethodHandle PTR_PTR = LINKER.downcallHandle(NativeCalls.PTR_PTR);
        static final MethodHandle VOID_PTR = LINKER.downcallHandle(NativeCalls.VOID_PTR);
        static final MethodHandle VOID_PTR_LONG = LINKER.downcallHandle(NativeCalls.VOID_PTR_LONG);
        static final MethodHandle VOID_PTR_INT_PTR_PTR = LINKER.downcallHandle(NativeCalls.VOID_PTR_INT_PTR_PTR);
    }

    /**
     * Makes a global upcall stub for a static method.
     *
     * @param lookup     a lookup with access to the method
     * @param owner      the class that declares it
     * @param method     the method name
     * @param descriptor its C signature
     * @return the stub, alive until the JVM exits
     */
    public static MemorySegment upcall(MethodHandles.Lookup lookup, Class<?> owner, String method, FunctionDescriptor descriptor) {
        try {
            MethodHandle target = lookup.findStatic(owner, method, descriptor.toMethodType());
            return Linker.nativeLinker().upcallStub(target, descriptor, Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no upcall target " + method, e);
        }
    }

    /**
     * Calls {@code int f(void*)}.
     *
     * @param function the function pointer, not NULL
     * @param a        the argument
     * @return what it returned
     * @throws IllegalStateException if {@code function} is NULL
     */
    public static int callInt(MemorySegment function, MemorySegment a) {
        requireFunction(function);
        try {
            return (int) Invokers.INT_PTR.invokeExact(function, a);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Calls {@code int f(void*, void*)}.
     *
     * @param function the function pointer, not NULL
     * @param a        the first argument
     * @param b        the second argument
     * @return what it returned
     * @throws IllegalStateException if {@code function} is NULL
     */
    public static int callInt(MemorySegment function, MemorySegment a, MemorySegment b) {
        requireFunction(function);
        try {
            return (int) Invokers.INT_PTR_PTR.invokeExact(function, a, b);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Calls {@code int f(void*, void*, void*)}.
     *
     * @param function the function pointer, not NULL
     * @param a        the first argument
     * @param b        the second argument
     * @param c        the third argument
     * @return what it returned
     * @throws IllegalStateException if {@code function} is NULL
     */
    public static int callInt(MemorySegment function, MemorySegment a, MemorySegment b, MemorySegment c) {
        requireFunction(function);
        try {
            return (int) Invokers.INT_PTR_PTR_PTR.invokeExact(function, a, b, c);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Calls {@code void* f(void*)}.
     *
     * @param function the function pointer, not NULL
     * @param a        the argument
     * @return what it returned, a zero-length segment
     * @throws IllegalStateException if {@code function} is NULL
     */
    public static MemorySegment callPointer(MemorySegment function, MemorySegment a) {
        requireFunction(function);
        try {
            return (MemorySegment) Invokers.PTR_PTR.invokeExact(function, a);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Calls {@code void f(void*)}.
     *
     * @param function the function pointer, not NULL
     * @param a        the argument
     * @throws IllegalStateException if {@code function} is NULL
     */
    public static void callVoid(MemorySegment function, MemorySegment a) {
        requireFunction(function);
        try {
            Invokers.VOID_PTR.invokeExact(function, a);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Calls {@code void f(void*, int64_t)}.
     *
     * @param function the function pointer, not NULL
     * @param a        the first argument
     * @param n        the second argument
     * @throws IllegalStateException if {@code function} is NULL
     */
    public static void callVoid(MemorySegment function, MemorySegment a, long n) {
        requireFunction(function);
        try {
            Invokers.VOID_PTR_LONG.invokeExact(function, a, n);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Calls {@code void f(void*, int, void*, void*)}.
     *
     * @param function the function pointer, not NULL
     * @param a        the first argument
     * @param code     the second argument
     * @param b        the third argument
     * @param c        the fourth argument
     * @throws IllegalStateException if {@code function} is NULL
     */
    public static void callVoid(MemorySegment function, MemorySegment a, int code, MemorySegment b, MemorySegment c) {
        requireFunction(function);
        try {
            Invokers.VOID_PTR_INT_PTR_PTR.invokeExact(function, a, code, b, c);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The most bytes of a producer's message that are read: longer messages are cut there. */
    public static final int MAX_MESSAGE_BYTES = 4096;

    /**
     * Reads a producer's NUL-terminated UTF-8 message, never more than {@value #MAX_MESSAGE_BYTES} bytes and
     * never past readable memory: the pointer and every byte read are checked against the process's
     * readable mappings first ({@link ReadableMemory}). A message without a terminator in that range is cut
     * and marked so; a pointer to unreadable memory gives a message saying so.
     *
     * @param pointer the message, or NULL
     * @return the message, or null for NULL
     */
    public static String string(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return null;
        }
        long length = new CheckedReads().terminator(pointer.address(), MAX_MESSAGE_BYTES);
        if (length >= 0) {
            return pointer.reinterpret(length + 1).getString(0);
        }
        long readable = -1 - length;
        if (readable == 0) {
            return "(the message pointer 0x" + Long.toHexString(pointer.address()) + " does not point to readable memory)";
        }
        byte[] cut = pointer.reinterpret(readable).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        return new String(cut, java.nio.charset.StandardCharsets.UTF_8) + (readable == MAX_MESSAGE_BYTES
                ? "... (cut at " + MAX_MESSAGE_BYTES + " bytes: no terminator)"
                : "... (cut at " + readable + " bytes: runs into unreadable memory without a terminator)");
    }

    private static void requireFunction(MemorySegment function) {
        if (function.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("the callback is NULL");
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
