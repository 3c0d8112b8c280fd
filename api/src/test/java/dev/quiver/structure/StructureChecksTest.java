package dev.quiver.structure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The structure checks of {@link ApiStructureTest} on small compiled inputs with a known answer: a package
 * cycle and stray restricted calls are reported, with the classes that cause them; acyclic packages and
 * restricted calls inside the allowed package are not.
 */
class StructureChecksTest {

    private static List<String> cycles(Path dir, Map<String, String> sources) {
        return PackageCycles.find(SyntheticClasses.compile(dir, sources));
    }

    @Test
    void aCycleThroughThreePackagesIsReported(@TempDir Path dir) {
        assertEquals(List.of("packages [a, b, c] form a cycle: a -> b (a.A -> b.B); b -> c (b.B -> c.C); c -> a (c.C -> a.A)"),
                cycles(dir, Map.of(
                        "a.A", "package a; public class A { public b.B next; }",
                        "b.B", "package b; public class B { public c.C next; }",
                        "c.C", "package c; public class C { public static void touch(a.A first) {} }",
                        "d.D", "package d; public class D { a.A uses; }")));
    }

    @Test
    void aCycleThroughAMethodBodyAndAGenericSignatureIsReported(@TempDir Path dir) {
        assertEquals(List.of("packages [p, q] form a cycle: p -> q (p.P -> q.Q); q -> p (q.Q -> p.P)"), cycles(dir, Map.of(
                "p.P", "package p; public class P { public static int size() { return q.Q.LIST.size(); } }",
                "q.Q", "package q; import java.util.List; public class Q { public static final List<p.P> LIST = List.of(); }")));
    }

    @Test
    void packagesThatDependOneWayFormNoCycle(@TempDir Path dir) {
        assertEquals(List.of(), cycles(dir, Map.of(
                "a.A", "package a; public class A { public b.B next; }",
                "b.B", "package b; public class B { public c.C next; }",
                "c.C", "package c; public class C { }")));
    }

    @Test
    void strayRestrictedCallsAreReportedAndAllowedOnesAreNot(@TempDir Path dir) {
        List<ClassFile> classes = SyntheticClasses.compile(dir, Map.of(
                "x.abi.Views", """
                        package x.abi;
                        import java.lang.foreign.*;
                        public class Views {
                            public static MemorySegment view(MemorySegment p, long n) { return p.reinterpret(n); }
                        }""",
                "x.api.Stray", """
                        package x.api;
                        import java.lang.foreign.*;
                        public class Stray {
                            static MemorySegment view(MemorySegment p) { return p.reinterpret(8); }
                        }""",
                "x.api.Reference", """
                        package x.api;
                        import java.lang.foreign.*;
                        import java.util.function.BiFunction;
                        public class Reference {
                            static final BiFunction<MemorySegment, Long, MemorySegment> VIEW = MemorySegment::reinterpret;
                        }""",
                "x.api.Binder", """
                        package x.api;
                        import java.lang.foreign.*;
                        public class Binder {
                            static Linker linker() { return Linker.nativeLinker(); }
                        }""",
                "x.api.Clean", """
                        package x.api;
                        import java.lang.foreign.*;
                        public class Clean {
                            static long size(MemorySegment p) { return x.abi.Views.view(p, 4).byteSize(); }
                        }"""));
        assertEquals(List.of(
                "x.api.Binder uses java.lang.foreign.Linker",
                "x.api.Reference calls restricted java.lang.foreign.MemorySegment.reinterpret",
                "x.api.Stray calls restricted java.lang.foreign.MemorySegment.reinterpret"),
                RestrictedCalls.outside(classes, "x.abi"));
    }
}
