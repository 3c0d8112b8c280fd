package dev.quiver.device.opencl;

import dev.quiver.testkit.CLibrary;
import dev.quiver.testkit.CProgram;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks the bindings against the real OpenCL headers ({@code opencl-headers}) with the C compiler: every
 * downcall of {@link ClFunction} (declaration and FFM descriptor), every constant of {@link ClConstants} and
 * every error code of {@link OpenClError}. The generated C is made of {@code _Static_assert}s, so a single
 * mismatch fails compilation with the function or constant named.
 */
class OpenClHeaderSignatureChecksTest {
    private static final Path CL_H = Path.of("/usr/include/CL/cl.h");
    private static final String PRELUDE = """
            #define CL_TARGET_OPENCL_VERSION 300
            #define CL_USE_DEPRECATED_OPENCL_1_2_APIS
            #include <CL/cl.h>
            #include <CL/cl_ext.h>
            #include <stdio.h>
            """;
    /** GCC's {@code __builtin_classify_type} results. */
    private static final int INTEGER_TYPE_CLASS = 1;
    private static final int POINTER_TYPE_CLASS = 5;

    @Test
    void everyDowncallMatchesTheHeader() {
        StringBuilder c = new StringBuilder(PRELUDE);
        for (ClFunction function : ClFunction.values()) {
            c.append(assertions(function));
        }
        assertEquals("checked", compileAndRun(withMain(c, "checked")));
    }

    @Test
    void theEventCallbackUpcallMatchesTheHeader() {
        Signature registration = Signature.parse("clSetEventCallback", ClFunction.clSetEventCallback.c().prototype());
        assertEquals(MarkerForwarding.CALLBACK_TYPE, registration.parameters().get(2), "the upcall has the registered type");
        Signature callback = Signature.parse("(*)", MarkerForwarding.CALLBACK_TYPE);
        assertEquals("void", callback.returns());
        assertTrue(MarkerForwarding.CALLBACK.returnLayout().isEmpty(), "the upcall returns void");
        StringBuilder c = new StringBuilder(PRELUDE);
        for (int i = 0; i < callback.parameters().size(); i++) {
            c.append(layoutCheck("upcall parameter " + i, callback.parameters().get(i), MarkerForwarding.CALLBACK.argumentLayouts().get(i)));
        }
        assertEquals(callback.parameters().size(), MarkerForwarding.CALLBACK.argumentLayouts().size());
        assertEquals("ok", compileAndRun(withMain(c, "ok")));
    }

    @Test
    void aWrongDeclarationOrDescriptorFailsTheCheck() {
        String wrongDeclaration = PRELUDE + assertionsFor("clFinish", "cl_int clFinish(cl_mem, cl_uint)",
                ClFunction.clFinish.c().descriptor().returnLayout().orElseThrow(), List.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        IllegalStateException declaration = assertThrows(IllegalStateException.class,
                () -> compileAndRun(withMain(new StringBuilder(wrongDeclaration), "checked")));
        assertTrue(declaration.getMessage().contains("clFinish: declaration differs from CL/cl.h"), declaration.getMessage());

        String wrongLayout = PRELUDE + assertionsFor("clGetDeviceIDs", ClFunction.clGetDeviceIDs.c().prototype(),
                ValueLayout.JAVA_INT, List.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        IllegalStateException layout = assertThrows(IllegalStateException.class,
                () -> compileAndRun(withMain(new StringBuilder(wrongLayout), "checked")));
        assertTrue(layout.getMessage().contains("clGetDeviceIDs parameter 1 (cl_device_type) does not have the 4 bytes of its layout"),
                layout.getMessage());
    }

    @Test
    void everyConstantMatchesTheHeader() throws IllegalAccessException {
        StringBuilder c = new StringBuilder(PRELUDE);
        int count = 0;
        for (Field field : ClConstants.class.getDeclaredFields()) {
            if (!Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            field.setAccessible(true);
            long value = ((Number) field.get(null)).longValue();
            c.append("_Static_assert((long long) (").append(field.getName()).append(") == ").append(value)
                    .append("LL, \"").append(field.getName()).append(" differs from the header\");\n");
            count++;
        }
        assertTrue(count > 30, "constants found: " + count);
        assertEquals("ok", compileAndRun(withMain(c, "ok")));
    }

    @Test
    void everyErrorCodeOfClHIsNamedWithItsValue() throws IOException {
        StringBuilder c = new StringBuilder(PRELUDE);
        for (OpenClError error : OpenClError.values()) {
            c.append("_Static_assert(").append(error.name()).append(" == ").append(error.code())
                    .append(", \"").append(error.name()).append(" differs from ").append(error.header()).append("\");\n");
        }
        assertEquals("ok", compileAndRun(withMain(c, "ok")));

        Set<String> inHeader = errorCodesOfClH();
        Set<String> named = Arrays.stream(OpenClError.values()).filter(e -> e.header().equals("cl.h"))
                .map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
        assertTrue(inHeader.size() >= 60, "error codes parsed from cl.h: " + inHeader);
        assertEquals(inHeader, named, "OpenClError names exactly the error codes of cl.h");
    }

    @Test
    void declarationsNameTheirFunctionAndMatchTheDescriptorArity() {
        for (ClFunction function : ClFunction.values()) {
            Signature signature = Signature.parse(function.name(), function.c().prototype());
            assertEquals(function.c().descriptor().argumentLayouts().size(), signature.parameters().size(), function.name());
            assertFalse(function.c().descriptor().returnLayout().isEmpty(), function.name() + " returns a value");
        }
    }

    /** The error code macros between "Error Codes" and the next section of cl.h. */
    private static Set<String> errorCodesOfClH() throws IOException {
        String header = Files.readString(CL_H);
        int start = header.indexOf("/* Error Codes */");
        int end = header.indexOf("/* cl_bool */", start);
        assertTrue(start >= 0 && end > start, "cl.h has an error code section");
        Matcher m = Pattern.compile("#define\\s+(CL_\\w+)\\s+-?\\d+").matcher(header.substring(start, end));
        Set<String> names = new TreeSet<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static String assertions(ClFunction function) {
        return assertionsFor(function.name(), function.c().prototype(), function.c().descriptor().returnLayout().orElseThrow(),
                function.c().descriptor().argumentLayouts());
    }

    /** C asserting the declaration against the header, and each layout against the declared C types. */
    private static String assertionsFor(String name, String declaration, MemoryLayout returns, List<MemoryLayout> arguments) {
        Signature signature = Signature.parse(name, declaration);
        StringBuilder c = new StringBuilder();
        c.append("_Static_assert(__builtin_types_compatible_p(__typeof__(&").append(name).append("), ")
                .append(signature.returns()).append(" (*)(").append(String.join(", ", signature.parameters()))
                .append(")), \"").append(name).append(": declaration differs from CL/cl.h\");\n");
        c.append(layoutCheck(name + " return", signature.returns(), returns));
        for (int i = 0; i < arguments.size(); i++) {
            c.append(layoutCheck(name + " parameter " + i, signature.parameters().get(i), arguments.get(i)));
        }
        return c.toString();
    }

    private static String layoutCheck(String what, String cType, MemoryLayout layout) {
        boolean pointer = layout instanceof AddressLayout;
        String label = what + " (" + cType + ")";
        return "_Static_assert(sizeof(" + cType + ") == " + layout.byteSize() + ", \"" + label
                + " does not have the " + layout.byteSize() + " bytes of its layout\");\n"
                + "_Static_assert(__builtin_classify_type((" + cType + ") 0) == " + (pointer ? POINTER_TYPE_CLASS : INTEGER_TYPE_CLASS)
                + ", \"" + label + " is not " + (pointer ? "a pointer, as its address layout says" : "an integer, as its value layout says") + "\");\n";
    }

    private static String withMain(StringBuilder c, String printed) {
        return c + "int main(void) { puts(\"" + printed + "\"); return 0; }\n";
    }

    private static String compileAndRun(String c) {
        return CProgram.run(List.of(new CLibrary.Source("opencl_header_checks.c", c)), List.of()).strip();
    }

    /** A C declaration split into return type and parameter types (top-level commas only). */
    private record Signature(String returns, List<String> parameters) {
        static Signature parse(String name, String declaration) {
            int at = declaration.indexOf(" " + name + "(");
            assertTrue(at > 0, declaration + " declares " + name);
            String inner = declaration.substring(at + name.length() + 2, declaration.length() - 1);
            assertTrue(declaration.endsWith(")"), declaration);
            List<String> parameters = new ArrayList<>();
            int depth = 0;
            int from = 0;
            for (int i = 0; i < inner.length(); i++) {
                char ch = inner.charAt(i);
                if (ch == '(') {
                    depth++;
                } else if (ch == ')') {
                    depth--;
                } else if (ch == ',' && depth == 0) {
                    parameters.add(inner.substring(from, i).strip());
                    from = i + 1;
                }
            }
            parameters.add(inner.substring(from).strip());
            return new Signature(declaration.substring(0, at).strip(), List.copyOf(parameters));
        }
    }
}
