package dev.quiver.arrowjava;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every {@code ```java} block of the repository's README.md compiles as written (imports hoisted, statements in
 * a method) for release 22 and runs in this JVM, against the real CPU backend and real Arrow Java, releasing all
 * it exports. The README's path comes from the {@code quiver.readme} system property the build sets.
 */
class ReadmeExamplesTest {
    private static final String README = "quiver.readme";

    @TestFactory
    Stream<DynamicTest> everyJavaBlockCompilesAndRuns() throws IOException {
        return blocks().stream().map(block -> DynamicTest.dynamicTest(block.describe()
                + block.compileOnlyWhy().map(why -> " (compile-only: " + why + ")").orElse(""), () -> ReadmeBlockRun.check(block)));
    }

    @Test
    void everyJavaFenceIsFound() throws IOException {
        long fences = readme().lines().filter(line -> line.strip().equals("```java")).count();
        assertEquals(fences, blocks().size());
        assertFalse(blocks().isEmpty(), "README.md has Java blocks");
    }

    private static List<ReadmeBlock> blocks() throws IOException {
        return ReadmeBlocks.javaBlocks(readme());
    }

    private static String readme() throws IOException {
        String path = System.getProperty(README);
        if (path == null) {
            throw new IllegalStateException("system property " + README + " (the path of README.md) is not set");
        }
        return Files.readString(Path.of(path));
    }
}
