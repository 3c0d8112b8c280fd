package dev.quiver.structure;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Finds restricted FFM calls (the methods the JDK restricts to modules granted native access) and uses of
 * the linker and library lookup, outside the one package allowed to make them.
 */
final class RestrictedCalls {
    /** Restricted methods, as {@code owner.name}. */
    static final Set<String> RESTRICTED_METHODS = Set.of(
            "java.lang.foreign.MemorySegment.reinterpret",
            "java.lang.foreign.AddressLayout.withTargetLayout",
            "java.lang.foreign.Linker.downcallHandle",
            "java.lang.foreign.Linker.upcallStub",
            "java.lang.foreign.SymbolLookup.libraryLookup",
            "java.lang.foreign.SymbolLookup.loaderLookup",
            "java.lang.foreign.SymbolLookup.find",
            "java.lang.System.load",
            "java.lang.System.loadLibrary",
            "java.lang.Runtime.load",
            "java.lang.Runtime.loadLibrary",
            "java.lang.ModuleLayer$Controller.enableNativeAccess");
    /**
     * Classes whose every use belongs in the allowed package: they exist to bind native code. A
     * {@code SymbolLookup} may be passed on (a backend's vendor library lent to applications); looking a symbol
     * up in one is a call above.
     */
    static final Set<String> NATIVE_BINDING_CLASSES = Set.of("java.lang.foreign.Linker");

    private RestrictedCalls() {}

    /**
     * @param classes        the classes to scan
     * @param allowedPackage the one package that may make restricted calls (not its subpackages)
     * @return one line per offending class and call; empty if there is none
     */
    static List<String> outside(List<ClassFile> classes, String allowedPackage) {
        List<String> found = new ArrayList<>();
        for (ClassFile c : classes) {
            if (c.packageName().equals(allowedPackage)) {
                continue;
            }
            c.methods().stream()
                    .map(m -> m.owner() + "." + m.name())
                    .filter(RESTRICTED_METHODS::contains)
                    .distinct()
                    .forEach(m -> found.add(c.name() + " calls restricted " + m));
            c.referenced().stream()
                    .filter(NATIVE_BINDING_CLASSES::contains)
                    .forEach(t -> found.add(c.name() + " uses " + t));
        }
        return found;
    }
}
