package dev.quiver.arrowjava;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every {@code ```java} block of the repository's README.md compiles as written (imports hoisted, statements in
 * a method) for release 22 and runs in this JVM, against the real CPU backend and real Arrow Java, releasing all
 * it exports; except the blocks marked {@code <!-- runs in: module -->}, which need a module this one does not
 * have (Arrow Flight, sharing between processes) and which that module's tests run the same way. The README's path comes from the
 * {@code quiver.readme} system property the build sets.
 */
public class ReadmeExamplesTest {
    /** The modules whose tests run the README blocks marked for them. */
    static final List<String> OTHER_RUNNERS = List.of("flight", "share");
    private static final String README = "quiver.readme";

    /** Made by JUnit; public because the flight module's tests read the blocks through this class. */
    public ReadmeExamplesTest() {}

    @TestFactory
    Stream<DynamicTest> everyJavaBlockCompilesAndRuns() throws IOException {
        return blocksRunningIn(Optional.empty()).stream().map(block -> DynamicTest.dynamicTest(block.describe()
                + block.compileOnlyWhy().map(why -> " (compile-only: " + why + ")").orElse(""), () -> ReadmeBlockRun.check(block)));
    }

    @Test
    void everyJavaFenceIsFound() throws IOException {
        long fences = readme().lines().filter(line -> line.strip().equals("```java")).count();
        assertEquals(fences, blocks().size());
        assertFalse(blocksRunningIn(Optional.empty()).isEmpty(), "README.md has Java blocks");
    }

    @Test
    void everyBlockMarkedForAnotherModuleHasARunnerThere() throws IOException {
        for (ReadmeBlock block : blocks()) {
            block.runsIn().ifPresent(module -> assertTrue(OTHER_RUNNERS.contains(module), block.describe() + " runs in " + module
                    + ", whose tests do not run README blocks (those that do: " + OTHER_RUNNERS + ")"));
        }
    }

    private static List<ReadmeBlock> blocks() throws IOException {
        return ReadmeBlocks.javaBlocks(readme());
    }

    /**
     * @param module a module that runs README blocks, or empty for this one
     * @return the blocks it runs
     */
    public static List<ReadmeBlock> blocksRunningIn(Optional<String> module) throws IOException {
        return blocks().stream().filter(block -> block.runsIn().equals(module)).toList();
    }

    private static String readme() throws IOException {
        String path = System.getProperty(README);
        if (path == null) {
            throw new IllegalStateException("system property " + README + " (the path of README.md) is not set");
        }
        return Files.readString(Path.of(path));
    }
}
