package dev.quiver.device.cuda;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.ProbeResult;
import dev.quiver.testkit.TestDoubleLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The test double of the CUDA driver ({@code fake_libcuda.c}), compiled against the CUDA toolkit headers into
 * a library named {@code libcuda.so.1}, with two devices. It stands in for the driver so the backend's code runs here; it
 * proves nothing about NVIDIA hardware.
 */
final class CudaTestDouble {
    /** Where the CUDA toolkit headers are (system property {@code quiver.cuda.include}). */
    static final String INCLUDE = System.getProperty("quiver.cuda.include", "/usr/local/cuda/include");

    private CudaTestDouble() {}

    static TestDoubleLibrary library() {
        return TestDoubleLibrary.build(CudaTestDouble.class, List.of("fake_libcuda.c"), CudaProvider.DEFAULT_LIBRARY,
                List.of("-I" + INCLUDE));
    }

    /** A provider loading the test double. */
    static CudaProvider provider() {
        return new CudaProvider(library().path());
    }

    /** @return the device of that type and ordinal the test double's provider reports */
    static BackendDevice device(int type, long ordinal) {
        ProbeResult result = provider().probe();
        return ((ProbeResult.Available) result).devices().stream()
                .filter(d -> d.deviceType() == type && d.deviceId() == ordinal).findFirst()
                .orElseThrow(() -> new IllegalStateException("no device of type " + type + " and id " + ordinal + ": " + result));
    }

    /** Pushes a device's primary context on the calling thread, as an application would. */
    static void pushPrimaryContext(int ordinal) {
        call("test_double_push_primary", ordinal);
    }

    /** Pops the calling thread's current context. */
    static void popContext() {
        call("test_double_pop", 0);
    }

    /** @return a {@code CUstream} the test double made in device {@code ordinal}'s primary context, as an application would */
    static MemorySegment applicationStream(int ordinal) {
        return made("test_double_application_stream", ordinal);
    }

    /** @return a {@code CUevent} the test double made in device {@code ordinal}'s primary context, as an application would */
    static MemorySegment applicationEvent(int ordinal) {
        return made("test_double_application_event", ordinal);
    }

    private static MemorySegment made(String function, int ordinal) {
        long handle;
        try {
            handle = (long) library().function(function, FunctionDescriptor.of(JAVA_LONG, JAVA_INT)).invokeExact(ordinal);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (handle == 0) {
            throw new IllegalStateException(function + "(" + ordinal + ") failed");
        }
        return MemorySegment.ofAddress(handle);
    }

    static long counter(String name) {
        return library().counter("test_double_" + name);
    }

    private static void call(String function, int argument) {
        try {
            int result = (int) library().function(function, FunctionDescriptor.of(JAVA_INT, JAVA_INT)).invokeExact(argument);
            if (result != 0) {
                throw new IllegalStateException(function + "(" + argument + ") returned " + result);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
