package dev.quiver.testkit.snippets;

import dev.quiver.testkit.CLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/** The example in the documentation of package {@code dev.quiver.testkit}, compiled with the tests. */
final class TestkitSnippets {
    private TestkitSnippets() {}

    /** Stands in for a test class beside its C resources. */
    static final class MyTest {}

    static MethodHandle library() {
        // @start region="library"
        CLibrary lib = CLibrary.fromResources(MyTest.class, "abi_sizes.c");
        MethodHandle size = lib.function("sizeof_schema", FunctionDescriptor.of(ValueLayout.JAVA_LONG));
        // @end
        return size;
    }
}
