package dev.quiver.device.ffm;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;

/**
 * One entry of a backend's declarative table of vendor entry points: the C declaration as the vendor header
 * has it (parameter types only, for example {@code "CUresult cuMemAlloc_v2(CUdeviceptr *, size_t)"}) beside
 * the {@link FunctionDescriptor} Java calls it with. The header checks compare the two with the C compiler.
 * Immutable.
 *
 * @param prototype  the C declaration, naming the symbol
 * @param descriptor how Java calls it
 */
public record CFunction(String prototype, FunctionDescriptor descriptor) {

    /**
     * @param prototype  the C declaration, naming the symbol
     * @param result     the layout carrying the C result
     * @param parameters the layouts carrying the C parameters, in order
     * @return the entry
     */
    public static CFunction of(String prototype, MemoryLayout result, MemoryLayout... parameters) {
        return new CFunction(prototype, FunctionDescriptor.of(result, parameters));
    }

    /**
     * @param prototype  the C declaration of a function returning {@code void}, naming the symbol
     * @param parameters the layouts carrying the C parameters, in order
     * @return the entry
     */
    public static CFunction ofVoid(String prototype, MemoryLayout... parameters) {
        return new CFunction(prototype, FunctionDescriptor.ofVoid(parameters));
    }

    /** @return the symbol the prototype declares, for example {@code cuMemAlloc_v2} */
    public String symbol() {
        String head = prototype.substring(0, prototype.indexOf('(')).strip();
        return head.substring(Math.max(head.lastIndexOf(' '), head.lastIndexOf('*')) + 1);
    }

    /** A backend's table of entry points: an enum whose constants each carry a {@link CFunction}. */
    public interface Table {
        /** @return the C declaration and Java descriptor of this entry point */
        CFunction c();
    }
}
