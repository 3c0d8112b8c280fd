package dev.quiver.device.rocm;

import dev.quiver.testkit.TestDoubleLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The test double of the HIP runtime ({@code fake_libamdhip64.c}), compiled against the installed
 * {@code hip_runtime_api.h} into a library named {@code libamdhip64.so.5}, with two devices. It stands in for
 * the runtime so the backend's code runs here; it proves nothing about AMD hardware.
 */
final class RocmTestDouble {
    /** The soname of the HIP runtime of ROCm 5, which the installed headers belong to. */
    static final String SONAME = "libamdhip64.so.5";
    /** Compiler flags for the HIP headers in C. */
    static final List<String> FLAGS = List.of("-D__HIP_PLATFORM_AMD__");

    private RocmTestDouble() {}

    static TestDoubleLibrary library() {
        return TestDoubleLibrary.build(RocmTestDouble.class, List.of("fake_libamdhip64.c"), SONAME, FLAGS);
    }

    /** A provider loading the test double. */
    static RocmProvider provider() {
        return new RocmProvider(library().path());
    }

    static long counter(String name) {
        return library().counter("test_double_" + name);
    }

    /** @return a {@code hipStream_t} of device {@code device}, made with the test double's HIP API as an application would */
    static MemorySegment applicationStream(int device) {
        return made("hipStreamCreateWithFlags", device);
    }

    /** @return a {@code hipEvent_t} made on device {@code device} with the test double's HIP API as an application would */
    static MemorySegment applicationEvent(int device) {
        return made("hipEventCreateWithFlags", device);
    }

    /** Calls {@code create(&handle, 0)} with {@code device} current, restoring the thread's device afterwards. */
    private static MemorySegment made(String create, int device) {
        int previous = (int) counter("current_device");
        setDevice(device);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int error = (int) library().function(create, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)).invokeExact(out, 0);
            if (error != 0) {
                throw new IllegalStateException(create + " returned " + error);
            }
            return out.get(ADDRESS, 0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            setDevice(previous);
        }
    }

    /** Makes a device current on the calling thread, as an application would ({@code hipSetDevice}). */
    static void setDevice(int device) {
        try {
            int error = (int) library().function("hipSetDevice", FunctionDescriptor.of(JAVA_INT, JAVA_INT)).invokeExact(device);
            if (error != 0) {
                throw new IllegalStateException("hipSetDevice(" + device + ") returned " + error);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
