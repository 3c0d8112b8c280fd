package dev.quiver.arrowjava;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The Java blocks of the docs marked {@code <!-- runs in: spark -->}, compiled and run here on this module's class
 * path (Spark, Arrow Flight, the CPU and OpenCL backends) by the harness of quiver-arrow-java's
 * {@link ReadmeExamplesTest}: each compiles, returns normally and releases all it exported.
 */
class SparkReadmeExamplesTest {
    private static final Optional<String> SPARK = Optional.of("spark");

    @TestFactory
    Stream<DynamicTest> everySparkBlockCompilesAndRuns() throws IOException {
        return ReadmeExamplesTest.blocksRunningIn(SPARK).stream()
                .map(block -> DynamicTest.dynamicTest(block.describe(), () -> ReadmeBlockRun.check(block)));
    }

    @Test
    void theDocsHaveSparkBlocks() throws IOException {
        assertFalse(ReadmeExamplesTest.blocksRunningIn(SPARK).isEmpty(), "docs/guides/spark.md has blocks marked <!-- runs in: spark -->");
    }
}
