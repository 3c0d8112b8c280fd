package dev.quiver.cli;

import dev.quiver.cli.CheckProducers.Releases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quiver check --stream} on gcc-built ArrowDeviceArrayStream producers ({@code check_streams.c}):
 * the conforming stream is pulled to its end and passes; each faulty one is caught by the rules its fault
 * breaks; the stream, its schema and every array it handed out are released exactly once (counted in C).
 */
class CheckStreamProducersTest {

    @Test
    void conformingStreamIsPulledToItsEnd() {
        Releases before = Releases.now();
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), "stream_batches", "--stream");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("checked: ArrowDeviceArray arrays[2]: CPU:-1, length 3, format \"+s\""), run.out());
        assertTrue(run.out().contains("checked: end of stream after 3 arrays"), run.out());
        assertTrue(run.out().endsWith("result: CONFORMING (no violations)\n"), run.out());
        assertEquals(new Releases(15, 3, 5, 1, 1), Releases.now().since(before));
    }

    @Test
    void pullsNoMoreThanAsked() {
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), "stream_batches", "--stream", "--max-arrays", "2");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("note: stopped after 2 arrays without reaching the end of the stream"), run.out());
    }

    static Stream<Arguments> violations() {
        return Stream.of(
                Arguments.of("stream_foreign_device", Set.of("stream.device-type"), "arrays[1].device_type", new Releases(15, 3, 5, 1, 1)),
                Arguments.of("stream_ends_with_error", Set.of("stream.error-code", "producer.error"), "stream.get_next", new Releases(15, 3, 5, 1, 1)),
                Arguments.of("stream_unreadable_error", Set.of("stream.last-error", "producer.error"), "stream.get_last_error", new Releases(5, 1, 5, 1, 1)),
                Arguments.of("stream_fails", Set.of("producer.error"), "stream.get_next", new Releases(10, 2, 5, 1, 1)),
                Arguments.of("stream_without_last_error", Set.of("stream.callback"), "stream.get_last_error", new Releases(0, 0, 0, 0, 1)),
                Arguments.of("stream_release_not_marked", Set.of("release.not-marked"), "stream.release", new Releases(15, 3, 5, 1, 1)));
    }

    @ParameterizedTest(name = "{0} breaks {1}")
    @MethodSource("violations")
    void eachFaultIsFound(String producer, Set<String> rules, String path, Releases released) {
        Releases before = Releases.now();
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), producer, "--stream", "--json");
        assertEquals(1, run.code(), run.out() + run.err());
        assertEquals(rules, CheckProducers.rules(run.out()), run.out());
        assertEquals(path, CheckProducers.paths(run.out()).getFirst(), run.out());
        assertEquals(released, Releases.now().since(before), "release calls counted in C");
    }

    @Test
    void theErrorMessageFromGetLastErrorIsReported() {
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), "stream_fails", "--stream");
        assertEquals(1, run.code());
        assertTrue(run.out().lines().anyMatch(l -> l.matches("producer\\.error +stream\\.get_next +get_next \\(array 2\\) returned 5: disk on fire; nothing further could be checked")), run.out());
    }
}
