package dev.quiver.structure;

import java.lang.invoke.MethodHandles;

/** A class that reaches another's private members reflectively: what the reflection scan must find. */
final class ReflectiveSample {
    private ReflectiveSample() {}

    static Object reach(Class<?> other) throws ReflectiveOperationException {
        java.lang.reflect.Field field = other.getDeclaredField("x");
        field.setAccessible(true);
        other.getMethod("toString");
        return MethodHandles.privateLookupIn(other, MethodHandles.lookup());
    }
}
