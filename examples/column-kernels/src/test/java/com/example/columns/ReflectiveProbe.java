package com.example.columns;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;

/**
 * Reaches a class by name, a private field by reflection and a private member through a lookup: everything
 * the library must not do. Never called; {@link PublicApiOnlyTest} scans it to show the scan sees such use.
 */
final class ReflectiveProbe {
    private static int secret;

    private ReflectiveProbe() {
    }

    static Object everythingTheLibraryAvoids() throws ReflectiveOperationException {
        Class<?> type = Class.forName("com.example.columns.ReflectiveProbe");
        Field field = type.getDeclaredField("secret");
        field.setAccessible(true);
        return MethodHandles.privateLookupIn(type, MethodHandles.lookup()).findStaticGetter(type, "secret", int.class);
    }
}
