package dev.quiver.arrowjava;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every {@code ```java} block of the repository's README.md and of every page under {@code docs/} compiles as
 * written (imports hoisted, statements in a method) for release 22 and runs in this JVM, against the real CPU
 * backend and real Arrow Java, releasing all it exports; except the blocks marked {@code <!-- runs in: module -->},
 * which need a module this one does not have (Arrow Flight, sharing between processes) and which that module's
 * tests run the same way. The pages are found from the {@code quiver.readme} system property the build sets
 * ({@link DocPages}).
 */
public class ReadmeExamplesTest {
    /** The modules whose tests run the blocks marked for them. */
    static final List<String> OTHER_RUNNERS = List.of("flight", "share", "spark");

    /** Made by JUnit; public because the flight module's tests read the blocks through this class. */
    public ReadmeExamplesTest() {}

    @TestFactory
    Stream<DynamicTest> everyJavaBlockCompilesAndRuns() throws IOException {
        return blocksRunningIn(Optional.empty()).stream().map(block -> DynamicTest.dynamicTest(block.describe()
                + block.compileOnlyWhy().map(why -> " (compile-only: " + why + ")").orElse(""), () -> ReadmeBlockRun.check(block)));
    }

    @Test
    void everyJavaFenceIsFound() throws IOException {
        long fences = 0;
        for (Path page : DocPages.all()) {
            fences += Files.readAllLines(page).stream().filter(line -> line.strip().equals("```java")).count();
        }
        assertEquals(fences, blocks().size());
        assertFalse(blocksRunningIn(Optional.empty()).isEmpty(), "the README and docs/ have Java blocks");
    }

    @Test
    void everyBlockMarkedForAnotherModuleHasARunnerThere() throws IOException {
        for (ReadmeBlock block : blocks()) {
            block.runsIn().ifPresent(module -> assertTrue(OTHER_RUNNERS.contains(module), block.describe() + " runs in " + module
                    + ", whose tests do not run documentation blocks (those that do: " + OTHER_RUNNERS + ")"));
        }
    }

    /** @return the Java blocks of the README and of every docs page, page by page in {@link DocPages#all()} order */
    private static List<ReadmeBlock> blocks() throws IOException {
        List<ReadmeBlock> blocks = new ArrayList<>();
        for (Path page : DocPages.all()) {
            blocks.addAll(ReadmeBlocks.javaBlocks(DocPages.name(page), Files.readString(page)));
        }
        return blocks;
    }

    /**
     * @param module a module that runs documentation blocks, or empty for this one
     * @return the blocks it runs
     */
    public static List<ReadmeBlock> blocksRunningIn(Optional<String> module) throws IOException {
        return blocks().stream().filter(block -> block.runsIn().equals(module)).toList();
    }
}
