package dev.quiver.device.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The bound entry points of a vendor API whose functions return an {@code int} result code
 * ({@code CUresult}, {@code hipError_t}, {@code ze_result_t}, {@code cl_int}), one downcall handle per
 * constant of the backend's declarative table {@code F}. Calls are written as lambdas that invoke the handle
 * exactly:
 * {@snippet :
 * bindings.check(cuMemFree, h -> (int) h.invokeExact(pointer));
 * MemorySegment stream = bindings.handleOut(cuStreamCreate, (h, out) -> (int) h.invokeExact(out, 0));
 * MemorySegment event = bindings.handleReturned(clCreateUserEvent, (h, status) -> (MemorySegment) h.invokeExact(context, status));
 * }
 * The last form is for APIs whose constructors return the new handle and write the result code through an
 * out-parameter (OpenCL's {@code errcode_ret}); {@link #run} calls the functions of such an API that have no
 * result code ({@code void} ones, or the C library's {@code memcpy}).
 * A result other than the success code becomes the backend's exception, naming the call and the error.
 * Immutable and thread-safe; out-parameters live in a confined arena per call.
 *
 * @param <F> the backend's table of entry points
 */
public final class Bindings<F extends Enum<F>> {
    private final Downcalls handles;
    private final int success;
    private final Failure<F> failure;

    /** One downcall through a bound handle. */
    @FunctionalInterface
    public interface Call {
        /**
         * @param handle the bound handle
         * @return the result code
         * @throws Throwable whatever {@link MethodHandle#invokeExact} throws
         */
        int invoke(MethodHandle handle) throws Throwable;
    }

    /** A downcall of a function without a result code: it returns {@code void}, or a value the caller ignores. */
    @FunctionalInterface
    public interface Action {
        /**
         * @param handle the bound handle
         * @throws Throwable whatever {@link MethodHandle#invokeExact} throws
         */
        void invoke(MethodHandle handle) throws Throwable;
    }

    /** A downcall that writes one value into {@code out}. */
    @FunctionalInterface
    public interface OutCall {
        /**
         * @param handle the bound handle
         * @param out    memory for the value the function writes
         * @return the result code
         * @throws Throwable whatever {@link MethodHandle#invokeExact} throws
         */
        int invoke(MethodHandle handle, MemorySegment out) throws Throwable;
    }

    /** A downcall that returns a handle and writes its result code into {@code status}. */
    @FunctionalInterface
    public interface HandleCall {
        /**
         * @param handle the bound handle
         * @param status memory for the {@code int} result code the function writes
         * @return the handle the function returns
         * @throws Throwable whatever {@link MethodHandle#invokeExact} throws
         */
        MemorySegment invoke(MethodHandle handle, MemorySegment status) throws Throwable;
    }

    /**
     * What a {@link HandleCall} returned, unchecked.
     *
     * @param handle the handle returned, meaningful only when {@code result} is the success code
     * @param result the result code written
     */
    public record Returned(MemorySegment handle, int result) {}

    /** Makes the exception for a failed call. */
    @FunctionalInterface
    public interface Failure<F extends Enum<F>> {
        /**
         * @param bindings the bindings, for example to ask the API for the error's name
         * @param function the entry point that failed
         * @param result   its result code
         * @return the exception to throw
         */
        RuntimeException of(Bindings<F> bindings, F function, int result);
    }

    /**
     * @param handles one handle per constant of {@code F}, by ordinal
     * @param success the result code of success
     * @param failure makes the exception for any other result
     */
    public Bindings(MethodHandle[] handles, int success, Failure<F> failure) {
        this(Downcalls.bound(handles), success, failure);
    }

    /**
     * @param handles one downcall per constant of {@code F}, by ordinal, made when first called
     * @param success the result code of success
     * @param failure makes the exception for any other result
     */
    public Bindings(Downcalls handles, int success, Failure<F> failure) {
        this.handles = handles;
        this.success = success;
        this.failure = failure;
    }

    /** {@return the result code of success} */
    public int success() {
        return success;
    }

    /**
     * Invokes a handle, passing on unchecked exceptions and wrapping the checked ones the signature of
     * {@link MethodHandle#invokeExact} allows but a downcall never throws.
     *
     * @param handle a downcall handle
     * @param call   the invocation
     * @return the result code
     */
    public static int invoke(MethodHandle handle, Call call) {
        try {
            return call.invoke(handle);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static MemorySegment invoke(MethodHandle handle, HandleCall call, MemorySegment status) {
        try {
            return call.invoke(handle, status);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * @param function an entry point
     * @return its bound handle
     */
    public MethodHandle handle(F function) {
        return handles.get(function.ordinal());
    }

    /**
     * @param function an entry point
     * @param call     the invocation
     * @return the result code, unchecked
     */
    public int result(F function, Call call) {
        return invoke(handles.get(function.ordinal()), call);
    }

    /**
     * Calls a function that has no result code (such as the C library's {@code free} or {@code memcpy}).
     *
     * @param function an entry point
     * @param action   the invocation
     */
    public void run(F function, Action action) {
        invoke(handles.get(function.ordinal()), h -> {
            action.invoke(h);
            return success;
        });
    }

    /**
     * Makes the call and throws unless it succeeds.
     *
     * @param function an entry point
     * @param call     the invocation
     */
    public void check(F function, Call call) {
        int result = result(function, call);
        if (result != success) {
            throw failure(function, result);
        }
    }

    /**
     * @param function an entry point
     * @param result   a result code it returned
     * @return the backend's exception for it
     */
    public RuntimeException failure(F function, int result) {
        return failure.of(this, function, result);
    }

    /**
     * Makes a call that writes a pointer or handle, and returns it.
     *
     * @param function an entry point
     * @param call     the invocation, given pointer-sized memory for the value
     * @return the value written
     */
    public MemorySegment handleOut(F function, OutCall call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            check(function, h -> call.invoke(h, out));
            return out.get(ADDRESS, 0);
        }
    }

    /**
     * Makes a call that returns a handle and writes its result code, without checking the code.
     *
     * @param function an entry point
     * @param call     the invocation, given memory for the result code
     * @return the handle and the result code
     */
    public Returned returned(F function, HandleCall call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(JAVA_INT);
            MemorySegment handle = invoke(handles.get(function.ordinal()), call, status);
            return new Returned(handle, status.get(JAVA_INT, 0));
        }
    }

    /**
     * Makes a call that returns a handle and writes its result code, and throws unless the code is success.
     *
     * @param function an entry point
     * @param call     the invocation, given memory for the result code
     * @return the handle returned
     */
    public MemorySegment handleReturned(F function, HandleCall call) {
        Returned returned = returned(function, call);
        if (returned.result() != success) {
            throw failure(function, returned.result());
        }
        return returned.handle();
    }

    /**
     * Makes a call that writes an {@code int}, and returns it.
     *
     * @param function an entry point
     * @param call     the invocation, given memory for the value
     * @return the value written
     */
    public int intOut(F function, OutCall call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            check(function, h -> call.invoke(h, out));
            return out.get(JAVA_INT, 0);
        }
    }

    /**
     * Calls {@code function(int *out)} and returns {@code *out}.
     *
     * @param function an entry point taking only an {@code int *}
     * @return the value written
     */
    public int intOut(F function) {
        return intOut(function, (h, out) -> (int) h.invokeExact(out));
    }

    /**
     * Makes a call that writes a 64-bit integer (a {@code size_t}, a {@code uint64_t}), and returns it.
     *
     * @param function an entry point
     * @param call     the invocation, given memory for the value
     * @return the value written
     */
    public long longOut(F function, OutCall call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            check(function, h -> call.invoke(h, out));
            return out.get(JAVA_LONG, 0);
        }
    }

    /**
     * Makes a call that writes a string into a buffer it is given.
     *
     * @param function an entry point
     * @param capacity the buffer's size in bytes
     * @param call     the invocation, given the buffer
     * @return the NUL-terminated string written
     */
    public String stringOut(F function, int capacity, OutCall call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(capacity);
            check(function, h -> call.invoke(h, out));
            return out.getString(0);
        }
    }
}
