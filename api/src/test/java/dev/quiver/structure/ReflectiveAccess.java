package dev.quiver.structure;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Finds reflective access to other classes' members: what would let one of Quiver's packages reach into another
 * around the module's access rules (private lookups, {@code setAccessible}, member lookups by name, declared or
 * public, loading a class by its name). A class's own {@code MethodHandles.lookup()} and its {@code find*} of its own methods
 * (upcall targets) are not reflection across packages and are not reported.
 */
final class ReflectiveAccess {
    /** Calls that reach around access control, as {@code owner.name}. */
    static final Set<String> REFLECTIVE_METHODS = Set.of(
            "java.lang.invoke.MethodHandles.privateLookupIn",
            "java.lang.reflect.AccessibleObject.setAccessible",
            "java.lang.reflect.Method.setAccessible",
            "java.lang.reflect.Field.setAccessible",
            "java.lang.reflect.Constructor.setAccessible",
            "java.lang.Class.getDeclaredMethod",
            "java.lang.Class.getDeclaredMethods",
            "java.lang.Class.getDeclaredField",
            "java.lang.Class.getDeclaredFields",
            "java.lang.Class.getDeclaredConstructor",
            "java.lang.Class.getDeclaredConstructors",
            "java.lang.Class.getMethod",
            "java.lang.Class.getMethods",
            "java.lang.Class.getField",
            "java.lang.Class.getFields",
            "java.lang.Class.getConstructor",
            "java.lang.Class.getConstructors",
            "java.lang.Class.forName");

    private ReflectiveAccess() {}

    /**
     * @param classes the classes to scan
     * @return one line per class and reflective call; empty if there is none
     */
    static List<String> in(List<ClassFile> classes) {
        List<String> found = new ArrayList<>();
        for (ClassFile c : classes) {
            c.methods().stream()
                    .map(m -> m.owner() + "." + m.name())
                    .filter(REFLECTIVE_METHODS::contains)
                    .distinct()
                    .forEach(m -> found.add(c.name() + " calls " + m));
        }
        return found;
    }
}
