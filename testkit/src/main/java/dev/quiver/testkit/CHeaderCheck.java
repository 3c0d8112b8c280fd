package dev.quiver.testkit;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks Java declarations of a C API against the vendor's own headers, with the C compiler as the judge.
 * Each declaration becomes compile-time assertions in a generated C program:
 * <ul>
 *   <li>a function, given as a C prototype with parameter types only (for example
 *       {@code "CUresult cuMemAlloc_v2(CUdeviceptr *, size_t)"}) plus the {@link FunctionDescriptor} that
 *       binds it: the header's declaration of the symbol must have exactly that function type
 *       ({@code __builtin_types_compatible_p}), and every C type must have the size and kind (integer or
 *       pointer) of the Java layout that carries it, and a struct passed by value (a {@link GroupLayout}) must
 *       be a C struct of its size and alignment;</li>
 *   <li>a function pointer type (such as CUDA's {@code PFN_cuMemAlloc_v3020}) that must equal a prototype;</li>
 *   <li>a struct layout: {@code sizeof}, {@code _Alignof}, and {@code offsetof} and size of every named
 *       member;</li>
 *   <li>an integer constant whose value the Java code hard-codes;</li>
 *   <li>a macro whose expansion the program prints (see {@link #run}).</li>
 * </ul>
 * A mismatch fails compilation, and {@link #run} throws with the compiler's message. Not thread-safe while
 * being built.
 */
public final class CHeaderCheck {
    private final List<String> preamble;
    private final List<String> assertions = new ArrayList<>();
    private final List<String> expansions = new ArrayList<>();

    /**
     * A check whose C program starts with {@code preamble}.
     *
     * @param preamble lines that open the program, typically {@code #define}s and {@code #include}s of the
     *                 vendor headers
     */
    public CHeaderCheck(List<String> preamble) {
        this.preamble = List.copyOf(preamble);
    }

    /** A C prototype, split into its parts. */
    record Prototype(String returnType, String symbol, List<String> parameterTypes) {
        static Prototype parse(String prototype) {
            int open = prototype.indexOf('(');
            int close = prototype.lastIndexOf(')');
            if (open < 0 || close < open) {
                throw new IllegalArgumentException("not a C prototype: " + prototype);
            }
            String head = prototype.substring(0, open).strip();
            int split = Math.max(head.lastIndexOf(' '), head.lastIndexOf('*'));
            String returnType = head.substring(0, split + 1).strip();
            String symbol = head.substring(split + 1).strip();
            String inside = prototype.substring(open + 1, close).strip();
            List<String> parameters = inside.isEmpty() || inside.equals("void") ? List.of()
                    : Arrays.stream(inside.split(",")).map(String::strip).toList();
            return new Prototype(returnType, symbol, parameters);
        }

        String pointerType() {
            return returnType + " (*)(" + (parameterTypes.isEmpty() ? "void" : String.join(", ", parameterTypes)) + ")";
        }
    }

    /**
     * {@return this}
     * @param prototype  the C prototype, parameter types only, naming the symbol the binding resolves
     * @param descriptor the descriptor the binding uses for it
     */
    public CHeaderCheck function(String prototype, FunctionDescriptor descriptor) {
        Prototype p = carriedBy(prototype, descriptor);
        assertion("__builtin_types_compatible_p(__typeof__(&" + p.symbol() + "), " + p.pointerType() + ")",
                p.symbol() + " in the header is not " + p.pointerType());
        return this;
    }

    /**
     * {@return this}
     * @param functionPointerType a C function pointer type, for example a {@code PFN_} typedef
     * @param prototype           the prototype it must equal (its symbol names only the message)
     * @param descriptor          the descriptor the binding uses for it
     */
    public CHeaderCheck functionPointerType(String functionPointerType, String prototype, FunctionDescriptor descriptor) {
        Prototype p = carriedBy(prototype, descriptor);
        assertion("__builtin_types_compatible_p(" + functionPointerType + ", " + p.pointerType() + ")",
                functionPointerType + " is not " + p.pointerType());
        return this;
    }

    private Prototype carriedBy(String prototype, FunctionDescriptor descriptor) {
        Prototype p = Prototype.parse(prototype);
        List<MemoryLayout> arguments = descriptor.argumentLayouts();
        if (arguments.size() != p.parameterTypes().size()) {
            throw new IllegalArgumentException(p.symbol() + ": the descriptor has " + arguments.size()
                    + " arguments but the prototype " + p.parameterTypes().size());
        }
        if (descriptor.returnLayout().isPresent() == p.returnType().equals("void")) {
            throw new IllegalArgumentException(p.symbol() + ": descriptor and prototype disagree on a void return");
        }
        descriptor.returnLayout().ifPresent(layout -> carries(p.symbol() + " result", p.returnType(), layout));
        for (int i = 0; i < arguments.size(); i++) {
            carries(p.symbol() + " parameter " + (i + 1), p.parameterTypes().get(i), arguments.get(i));
        }
        return p;
    }

    private void carries(String what, String cType, MemoryLayout layout) {
        if (layout instanceof GroupLayout group) {
            // a struct passed by value (a 64-byte IPC handle, say): same size and alignment, and a struct in C
            assertion("sizeof(" + cType + ") == " + group.byteSize(), what + " " + cType + " is not " + group.byteSize() + " bytes like " + group);
            assertion("_Alignof(" + cType + ") == " + group.byteAlignment(), what + " " + cType + " is not aligned to " + group.byteAlignment());
            assertion("__builtin_classify_type((" + cType + "){0}) == 12", what + " " + cType + " is not a struct");
            return;
        }
        if (!(layout instanceof ValueLayout value)) {
            throw new IllegalArgumentException(what + ": only scalar and pointer layouts cross this API, not " + layout);
        }
        assertion("sizeof(" + cType + ") == " + value.byteSize(), what + " " + cType + " is not " + value.byteSize() + " bytes like " + value);
        int typeClass = value instanceof AddressLayout ? 5
                : value.carrier() == float.class || value.carrier() == double.class ? 8 : 1;
        assertion("__builtin_classify_type((" + cType + "){0}) == " + typeClass,
                what + " " + cType + " is not " + (typeClass == 5 ? "a pointer" : typeClass == 8 ? "a floating type" : "an integer"));
    }

    /**
     * {@return this}
     * @param cType  the C struct type, for example {@code ze_context_desc_t}
     * @param layout the Java layout; its named members must be named as in C, padding is skipped
     */
    public CHeaderCheck struct(String cType, GroupLayout layout) {
        assertion("sizeof(" + cType + ") == " + layout.byteSize(), "sizeof(" + cType + ") is not " + layout.byteSize());
        assertion("_Alignof(" + cType + ") == " + layout.byteAlignment(), "_Alignof(" + cType + ") is not " + layout.byteAlignment());
        long offset = 0;
        for (MemoryLayout member : layout.memberLayouts()) {
            if (!(member instanceof PaddingLayout)) {
                String name = member.name().orElseThrow(() -> new IllegalArgumentException(cType + " has an unnamed member " + member));
                assertion("__builtin_offsetof(" + cType + ", " + name + ") == " + offset, cType + "." + name + " is not at " + offset);
                assertion("sizeof(((" + cType + " *)0)->" + name + ") == " + member.byteSize(), cType + "." + name + " is not " + member.byteSize() + " bytes");
            }
            offset += member.byteSize();
        }
        return this;
    }

    /**
     * {@return this}
     * @param cExpression an integer constant expression, usually a macro or enumerator name
     * @param value       the value the Java code uses
     */
    public CHeaderCheck constant(String cExpression, long value) {
        assertion("(long long)(" + cExpression + ") == " + value + "LL", cExpression + " is not " + value);
        return this;
    }

    /**
     * {@return this}
     * @param macro a macro whose expansion {@link #run} reports, for example to see which versioned symbol a
     *              header maps a bare name to
     */
    public CHeaderCheck expansion(String macro) {
        expansions.add(macro);
        return this;
    }

    /** {@return how many assertions the program holds} */
    public int assertionCount() {
        return assertions.size();
    }

    /** {@return the generated C program} */
    public String source() {
        StringBuilder c = new StringBuilder();
        preamble.forEach(line -> c.append(line).append('\n'));
        c.append("#include <stdio.h>\n#define QUIVER_STR(x) #x\n#define QUIVER_XSTR(x) QUIVER_STR(x)\n\n");
        assertions.forEach(line -> c.append(line).append('\n'));
        c.append("\nint main(void) {\n  printf(\"assertions %d\\n\", ").append(assertions.size()).append(");\n");
        for (String macro : expansions) {
            c.append("  printf(\"expansion ").append(macro).append("=%s\\n\", QUIVER_XSTR(").append(macro).append("));\n");
        }
        return c.append("  return 0;\n}\n").toString();
    }

    /**
     * Compiles and runs the program.
     *
     * @param fileName the C file name, shown in compiler messages
     * @param flags    compiler flags, for example {@code -I} of the vendor headers
     * @return the expansion of every macro passed to {@link #expansion}, by macro name
     * @throws IllegalStateException with the compiler's message if any assertion fails
     */
    public Map<String, String> run(String fileName, List<String> flags) {
        String output = CProgram.run(List.of(new CLibrary.Source(fileName, source())), flags);
        Map<String, String> result = new LinkedHashMap<>();
        boolean counted = false;
        for (String line : output.lines().toList()) {
            if (line.equals("assertions " + assertions.size())) {
                counted = true;
            } else if (line.startsWith("expansion ")) {
                int eq = line.indexOf('=');
                result.put(line.substring("expansion ".length(), eq), line.substring(eq + 1));
            }
        }
        if (!counted) {
            throw new IllegalStateException("the check program did not report its " + assertions.size() + " assertions:\n" + output);
        }
        return result;
    }

    private void assertion(String condition, String message) {
        assertions.add("_Static_assert(" + condition + ", \"" + message.replace("\"", "'") + "\");");
    }
}
