package dev.quiver.arrowjava;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The Java blocks of the README and the docs pages marked {@code <!-- runs in: flight -->}, compiled and run here
 * on this module's class path (Arrow Flight, the CPU, OpenCL and Vulkan backends) by the harness of
 * quiver-arrow-java's {@link ReadmeExamplesTest}, which runs every other block: each compiles, returns normally
 * and releases all it exported.
 */
class FlightReadmeExamplesTest {
    private static final Optional<String> FLIGHT = Optional.of("flight");

    @TestFactory
    Stream<DynamicTest> everyFlightBlockCompilesAndRuns() throws IOException {
        return ReadmeExamplesTest.blocksRunningIn(FLIGHT).stream()
                .map(block -> DynamicTest.dynamicTest(block.describe(), () -> ReadmeBlockRun.check(block)));
    }

    @Test
    void theDocsHaveFlightBlocks() throws IOException {
        assertFalse(ReadmeExamplesTest.blocksRunningIn(FLIGHT).isEmpty(), "the README and docs/ have blocks marked <!-- runs in: flight -->");
    }
}
