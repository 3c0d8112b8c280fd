package dev.quiver.types;

import dev.quiver.host.HostVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.LongStream;

/**
 * Property: any array of a random nested schema (depth up to 4, random nulls, random slices) survives
 * export, a C consumer and producer, import and full validation with every value intact, and every struct
 * is released exactly once. The seed is in the test name; rerun one with {@code -Dtest=...}.
 */
class RandomNestedArraysPropertyTest {

    static LongStream seeds() {
        return LongStream.range(0, 400);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void survivesTheCRoundTrip(long seed) {
        RandomArrays random = new RandomArrays(seed);
        HostVector vector = random.vector(4, 40);
        long start = vector.length() == 0 ? 0 : random.random().nextInt((int) vector.length() + 1);
        long length = random.random().nextInt((int) (vector.length() - start) + 1);
        try {
            EveryTypeThroughCTest.roundTrip(vector);
            EveryTypeThroughCTest.roundTrip(vector.slice(start, length));
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed " + seed + ", field " + vector.field() + ", slice " + start + "+" + length + ": " + e.getMessage(), e);
        }
    }
}
