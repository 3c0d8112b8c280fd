package dev.quiver.structure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The checks {@link ApiStructureTest} and {@link ModuleSourcesTest} add, on small inputs with a known answer: files
 * that use each other are reported once per pair and one-way use is not; reflection in source text is found where
 * it is called on a {@code Class}, and not in comments, strings or calls of the same name on other types.
 */
class SourceChecksTest {

    @Test
    void filesThatUseEachOtherAreReportedOncePerPair(@TempDir Path dir) {
        List<ClassFile> classes = SyntheticClasses.compile(dir, Map.of(
                "p.A", "package p; public class A { static class Inner { B b; } }",
                "p.B", "package p; public class B { public static A make() { return null; } }",
                "p.C", "package p; public class C { A a; B b; }",
                "p.D", "package p; public class D { q.E e; }",
                "q.E", "package q; public class E { p.D d; }"));
        assertEquals(List.of("A <-> B"), FileDependencies.twoWay(classes, "p"));
        assertEquals(List.of(), FileDependencies.twoWay(classes, "q"));
    }

    @Test
    void reflectionOnAClassIsFoundWhereverItIsWritten() {
        String source = """
                import static java.lang.Class.forName;
                class Sample {
                    Object all(Class<? extends java.util.List<String>> type, Object any) throws Exception {
                        Class.forName("x.Y");
                        type.getMethod("toString");
                        String.class.getField("CASE_INSENSITIVE_ORDER");
                        any.getClass().getMethods();
                        Class.forName("a").asSubclass(Runnable.class).getConstructor().newInstance();
                        any.getClass().getDeclaredField("x").setAccessible(true);
                        return java.lang.invoke.MethodHandles.privateLookupIn(type, null);
                    }
                }""";
        assertEquals(List.of(
                "S:1 Class.forName", "S:4 Class.forName", "S:5 getMethod", "S:6 getField", "S:7 getMethods",
                "S:8 Class.forName", "S:8 getConstructor", "S:9 getDeclaredField", "S:9 setAccessible",
                "S:10 privateLookupIn"), SourceReflection.in("S", source));
    }

    @Test
    void namesOfOtherApisCommentsAndStringsAreNotReflection() {
        String source = """
                class Sample {
                    /** Calls type.getMethod("toString") and Class.forName("x"): {@code a.getDeclaredField("y")}. */
                    Object none(ServerServiceDefinition flight, FieldVector vector, Schema schema) {
                        // Class.forName("x.Y"), getClass().getMethod("m")
                        String text = "Class.forName(\\"x\\") and type.getMethod(\\"m\\")";
                        String block = \"""
                                String.class.getField("x")
                                \""";
                        char quote = '"';
                        java.nio.charset.Charset.forName("UTF-8");
                        flight.getMethod("DoGet");
                        schema.getFields();
                        return vector.getField();
                    }
                }""";
        assertEquals(List.of(), SourceReflection.in("S", source));
    }
}
