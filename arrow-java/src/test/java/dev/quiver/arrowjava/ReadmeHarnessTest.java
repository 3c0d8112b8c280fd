package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The documentation check itself, on small Markdown texts: which fences it takes, the compile-only marker,
 * hoisted imports, and failures that name the file and line at fault (compile errors, exceptions, unreleased
 * exports).
 */
class ReadmeHarnessTest {
    @Test
    void onlyJavaFencesAreBlocksAndTheMarkerMakesOneCompileOnly() {
        List<ReadmeBlock> blocks = ReadmeBlocks.javaBlocks("README.md", """
                # Title
                ```sh
                ./quiver devices
                ```
                ```java
                int one = 1;
                ```

                <!-- compile-only: needs a CUDA device -->

                ```java
                int two = 2;
                ```
                ```
                --add-opens=java.base/java.nio=ALL-UNNAMED
                ```
                """);
        assertEquals(2, blocks.size());
        assertEquals(5, blocks.get(0).fenceLine());
        assertEquals(List.of("int one = 1;"), blocks.get(0).lines());
        assertEquals(Optional.empty(), blocks.get(0).compileOnlyWhy());
        assertEquals(11, blocks.get(1).fenceLine());
        assertEquals(Optional.of("needs a CUDA device"), blocks.get(1).compileOnlyWhy());
    }

    @Test
    void theRunsInMarkerGivesABlockToAnotherModuleAndCombinesWithCompileOnly() {
        List<ReadmeBlock> blocks = ReadmeBlocks.javaBlocks("README.md", """
                <!-- runs in: flight -->
                ```java
                int one = 1;
                ```
                Some text.
                ```java
                int two = 2;
                ```
                <!-- compile-only: needs a server -->

                <!-- runs in: flight -->
                ```java
                int three = 3;
                ```
                """);
        assertEquals(Optional.of("flight"), blocks.get(0).runsIn());
        assertEquals(Optional.empty(), blocks.get(0).compileOnlyWhy());
        assertEquals(Optional.empty(), blocks.get(1).runsIn(), "text between the marker and the fence ends it");
        assertEquals(Optional.of("flight"), blocks.get(2).runsIn());
        assertEquals(Optional.of("needs a server"), blocks.get(2).compileOnlyWhy());
    }

    @Test
    void aBlockOfADocsPageNamesThatPageInItsFailures() {
        List<ReadmeBlock> blocks = ReadmeBlocks.javaBlocks("docs/guides/example.md", """
                # Example

                ```java
                int[] values = new int[1];
                values[1] = 1;
                ```
                """);
        assertEquals("docs/guides/example.md block at line 3", blocks.getFirst().describe());
        AssertionError e = assertThrows(AssertionError.class, () -> ReadmeBlockRun.check(blocks.getFirst()));
        assertTrue(e.getMessage().contains("threw at docs/guides/example.md line 5"), e.getMessage());
    }

    @Test
    void anUnclosedFenceNamesItsLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReadmeBlocks.javaBlocks("README.md", "text\n```java\nint a;\n"));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    }

    @Test
    void importsAnywhereInABlockAreHoistedAndTheBlockRuns() throws Exception {
        ReadmeBlockRun.check(only("""
                ```java
                import java.util.List;
                List<String> names = List.of("a");
                import java.util.Map;
                if (!Map.of("a", 1).keySet().containsAll(names)) throw new IllegalStateException();
                ```
                """));
    }

    @Test
    void aCompleteClassCompilesAsItStandsAndItsMainRuns() {
        AssertionError e = assertThrows(AssertionError.class, () -> ReadmeBlockRun.check(only("""
                ```java
                import java.io.IOException;

                public class Example {
                    public static void main(String[] args) throws IOException {
                        throw new IOException("main ran");
                    }
                }
                ```
                """)));
        assertTrue(e.getMessage().contains("threw at README.md line 6"), e.getMessage());
        assertEquals("main ran", e.getCause().getMessage());
    }

    @Test
    void aCompleteClassMustDeclareWhatItThrows() {
        AssertionError e = assertThrows(AssertionError.class, () -> ReadmeBlockRun.check(only("""
                ```java
                public class Example {
                    public static void main(String[] args) {
                        java.nio.file.Files.readString(java.nio.file.Path.of("x"));
                    }
                }
                ```
                """)));
        assertTrue(e.getMessage().contains("README.md line 4: unreported exception java.io.IOException"), e.getMessage());
    }

    @Test
    void aCompileErrorNamesTheReadmeLine() {
        AssertionError e = assertThrows(AssertionError.class, () -> ReadmeBlockRun.check(only("""
                intro

                ```java
                import dev.quiver.*;

                Interchange.importDevice(deviceArrayPointer, schemaPointer);
                ```
                """)));
        assertTrue(e.getMessage().contains("README.md block at line 3"), e.getMessage());
        assertTrue(e.getMessage().contains("README.md line 6: cannot find symbol"), e.getMessage());
    }

    @Test
    void anExceptionNamesTheReadmeLineThatThrew() {
        AssertionError e = assertThrows(AssertionError.class, () -> ReadmeBlockRun.check(only("""
                ```java
                int[] values = new int[2];
                values[2] = 1;
                ```
                """)));
        assertTrue(e.getMessage().contains("threw at README.md line 3"), e.getMessage());
        assertTrue(e.getCause() instanceof ArrayIndexOutOfBoundsException, String.valueOf(e.getCause()));
    }

    @Test
    void anExportNobodyReleasesFailsTheBlock() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment deviceArray = ArrowDeviceArrayLayout.allocate(arena);
            MemorySegment schema = ArrowSchemaLayout.allocate(arena);
            AssertionError e = assertThrows(AssertionError.class, () -> ReadmeBlockRun.check(only("""
                    ```java
                    import dev.quiver.*;
                    import dev.quiver.abi.*;
                    import dev.quiver.host.*;
                    import java.lang.foreign.*;

                    Interchange.exportDevice(HostVector.int32("id", 1, 2).toDeviceArray(),
                            MemorySegment.ofAddress(%dL).reinterpret(ArrowDeviceArrayLayout.LAYOUT.byteSize()),
                            MemorySegment.ofAddress(%dL).reinterpret(ArrowSchemaLayout.LAYOUT.byteSize()));
                    ```
                    """.formatted(deviceArray.address(), schema.address()))));
            assertTrue(e.getMessage().contains("README.md block at line 1 left 2 Quiver exports whose release was not called"), e.getMessage());
            Interchange.importDevice(deviceArray, schema).close();
        }
    }

    @Test
    void aCompileOnlyBlockIsCompiledButNotRun() throws Exception {
        ReadmeBlockRun.check(only("""
                <!-- compile-only: throws on purpose -->
                ```java
                throw new IllegalStateException("must not run");
                ```
                """));
        AssertionError e = assertThrows(AssertionError.class, () -> ReadmeBlockRun.check(only("""
                <!-- compile-only: still compiled -->
                ```java
                undefinedVariable.run();
                ```
                """)));
        assertTrue(e.getMessage().contains("README.md line 3"), e.getMessage());
    }

    private static ReadmeBlock only(String markdown) {
        List<ReadmeBlock> blocks = ReadmeBlocks.javaBlocks("README.md", markdown);
        assertEquals(1, blocks.size());
        return blocks.getFirst();
    }
}
