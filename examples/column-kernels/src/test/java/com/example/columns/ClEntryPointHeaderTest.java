package com.example.columns;

import dev.quiver.testkit.CHeaderCheck;
import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The library's OpenCL downcalls agree with {@code CL/cl.h} ({@code opencl-headers}), as gcc judges. */
class ClEntryPointHeaderTest {
    private static final List<String> PREAMBLE = List.of(
            "#define CL_TARGET_OPENCL_VERSION 300",
            "#define CL_USE_DEPRECATED_OPENCL_1_2_APIS",
            "#include <CL/cl.h>",
            "typedef void (CL_CALLBACK *build_notify)(cl_program, void *);");

    @Test
    void everyDowncallMatchesTheHeader() {
        CHeaderCheck check = new CHeaderCheck(PREAMBLE);
        for (ClEntryPoint entry : ClEntryPoint.values()) {
            check.function(entry.declaration(), entry.descriptor());
        }
        assertEquals(Map.of(), check.run("column_kernels_cl.c", List.of()));
        assertTrue(check.assertionCount() > 2 * ClEntryPoint.values().length,
                "a type assertion per function and a size assertion per parameter: " + check.assertionCount());
    }

    @Test
    void aDescriptorThatDiffersFromTheHeaderFailsTheCheck() {
        CHeaderCheck check = new CHeaderCheck(PREAMBLE)
                .function("cl_int clReleaseKernel(cl_kernel)", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        IllegalStateException wrong = assertThrows(IllegalStateException.class, () -> check.run("wrong.c", List.of()));
        assertTrue(wrong.getMessage().contains("clReleaseKernel"), wrong.getMessage());
        CHeaderCheck right = new CHeaderCheck(PREAMBLE)
                .function("cl_int clReleaseKernel(cl_kernel)", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        assertEquals(Map.of(), right.run("right.c", List.of()));
    }
}
