package dev.quiver.benchmarks;

import dev.quiver.testkit.CLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** The C OpenCL baseline ({@code bench_opencl.c}, gcc -O2, linked against the ICD loader). */
final class COpenCl {
    static final MethodHandle OPEN;
    static final MethodHandle ROUND_TRIP;
    static final MethodHandle EVENT;

    static {
        CLibrary library = CLibrary.fromResources(COpenCl.class, List.of("bench_opencl.c"),
                List.of("-O2", "-Wl,--no-as-needed", "-l:libOpenCL.so.1"));
        OPEN = library.function("bench_cl_open", FunctionDescriptor.of(JAVA_INT));
        ROUND_TRIP = library.function("bench_cl_round_trip", FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG));
        EVENT = library.function("bench_cl_event", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    }

    private COpenCl() {}

    static void open() throws Throwable {
        int rc = (int) OPEN.invokeExact();
        if (rc != 0) {
            throw new IllegalStateException("OpenCL baseline could not open a device: error " + rc);
        }
    }

    static void check(long rc) {
        if (rc != 0) {
            throw new IllegalStateException("OpenCL baseline failed with error " + rc);
        }
    }
}
