package dev.quiver.cli;

import dev.quiver.cli.CheckProducers.Releases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quiver check} on gcc-built ArrowDeviceArray producers ({@code check_conforming.c},
 * {@code check_violations.c}): the conforming ones pass with exit code 0, each of the others is caught
 * with exactly the rule it breaks and exit code 1, and every struct the checker was handed is released
 * exactly once, as counted in C (five array nodes and five schema nodes per batch: the struct, three
 * columns and the dictionary of the last), unless the producer's own release skips some on purpose.
 */
class CheckArrayProducersTest {
    private static final Releases ALL = new Releases(5, 1, 5, 1, 0);

    @Test
    void conformingProducerPassesAndIsReleasedOnce() {
        Releases before = Releases.now();
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), "produce_batch", "--schema");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().endsWith("result: CONFORMING (no violations)\n"), run.out());
        assertTrue(run.out().contains("checked: ArrowSchema: format \"+s\", 3 children"), run.out());
        assertTrue(run.out().contains("checked: ArrowDeviceArray: CPU:-1, length 3, format \"+s\""), run.out());
        assertEquals(ALL, Releases.now().since(before), "each node released exactly once");
    }

    @Test
    void conformingProducerAsJson() {
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), "produce_batch", "--schema", "--json");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("\"conforming\": true"), run.out());
        assertTrue(run.out().contains("\"violations\": []"), run.out());
        assertTrue(run.out().contains("\"signature\": \"int f(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema)\""), run.out());
    }

    @Test
    void withoutSchemaOnlyTheRulesForEveryTypeApply() {
        Releases before = Releases.now();
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), "produce_batch_without_schema");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("note: no ArrowSchema: the array was checked only against the rules that hold for every type"), run.out());
        assertEquals(new Releases(5, 1, 0, 0, 0), Releases.now().since(before));
    }

    @Test
    void eventPointerOfADeviceWithoutBackendConformsWithANote() {
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), "produce_cuda_batch_with_event", "--schema");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("note: sync_event: points to readable memory holding 0x5eed0000; no usable CUDA backend"), run.out());
        assertTrue(run.out().contains("buffer contents not checked: CUDA memory is not host-readable"), run.out());
    }

    @Test
    void aCpuDeviceIdOtherThanMinusOneIsAWarningNotAViolation() {
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), "cpu_device_id_zero", "--schema");
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("warning: device.cpu-id at device_id: is 0; the spec recommends -1 for a CPU "
                + "array, which has no device ids"), run.out());
        assertEquals("result: CONFORMING (no violations, 1 warning)", run.out().lines().toList().getLast());

        CommandRun json = CommandRun.of("check", "--in-process", CheckProducers.path(), "cpu_device_id_zero", "--schema", "--json");
        assertTrue(json.out().contains("\"conforming\": true"), json.out());
        assertTrue(json.out().contains("\"warnings\": [\n    {\"rule\": \"device.cpu-id\", \"path\": \"device_id\""), json.out());
    }

    static Stream<Arguments> violations() {
        Releases none = new Releases(0, 0, 5, 1, 0);
        return Stream.of(
                Arguments.of("reserved_not_zeroed", "device.reserved", "reserved[1]", ALL),
                Arguments.of("device_type_unassigned", "device.type-unassigned", "device_type", ALL),
                Arguments.of("device_type_unknown", "device.type-unknown", "device_type", ALL),
                Arguments.of("cpu_with_sync_event", "event.not-allowed", "sync_event", ALL),
                Arguments.of("event_handle_stored", "event.not-a-pointer", "sync_event", ALL),
                Arguments.of("event_null_handle", "event.null-handle", "sync_event", ALL),
                Arguments.of("wrong_buffer_count", "array.buffer-count", "array.children[0].n_buffers", ALL),
                Arguments.of("null_validity_with_nulls", "array.buffer-null", "array.children[0].buffers[0]", ALL),
                Arguments.of("wrong_child_count", "array.child-count", "array.n_children", ALL),
                Arguments.of("child_too_short", "array.child-length", "array.children[1].length", ALL),
                Arguments.of("negative_length", "array.length", "array.length", ALL),
                Arguments.of("decreasing_offsets", "array.data", "array.children[1].buffers[1]", ALL),
                Arguments.of("release_not_marked", "release.not-marked", "array.release", ALL),
                Arguments.of("child_not_released", "release.child", "array.children[0].release", new Releases(1, 1, 5, 1, 0)),
                Arguments.of("dictionary_not_released", "release.child", "array.children[2].dictionary.release", new Releases(4, 1, 5, 1, 0)),
                Arguments.of("dictionary_unexpected", "array.dictionary", "array.children[0].dictionary", ALL),
                Arguments.of("release_not_code", "pointer.not-code", "array.release", none),
                Arguments.of("unreadable_children", "pointer.unreadable", "array.children", ALL),
                Arguments.of("self_pointer", "struct.self-pointer", "array.private_data", ALL),
                Arguments.of("schema_bad_format", "schema.format", "schema.children[0].format", ALL),
                Arguments.of("schema_unknown_flag", "schema.flags", "schema.children[1].flags", ALL),
                Arguments.of("producer_fails", "producer.error", "return value", new Releases(0, 0, 0, 0, 0)));
    }

    @ParameterizedTest(name = "{0} breaks {1} at {2}")
    @MethodSource("violations")
    void eachViolationIsFoundAloneWithItsPath(String producer, String rule, String path, Releases released) {
        Releases before = Releases.now();
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), producer, "--schema", "--json");
        assertEquals(1, run.code(), run.out() + run.err());
        assertEquals(Set.of(rule), CheckProducers.rules(run.out()), run.out());
        assertEquals(path, CheckProducers.paths(run.out()).getFirst(), run.out());
        assertTrue(run.out().contains("\"conforming\": false"), run.out());
        assertEquals(released, Releases.now().since(before), "release calls counted in C");
    }

    @Test
    void everyViolationIsReportedNotOnlyTheFirst() {
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), "child_not_released", "--schema", "--json");
        assertEquals(List.of("array.children[0].release", "array.children[1].release", "array.children[2].release",
                "array.children[2].dictionary.release"), CheckProducers.paths(run.out()), run.out());
    }

    @Test
    void tableNamesRulePathAndMessage() {
        CommandRun run = CommandRun.of("check", "--in-process", CheckProducers.path(), "reserved_not_zeroed", "--schema");
        assertEquals(1, run.code());
        List<String> lines = run.out().lines().toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("RULE")).findFirst().orElseThrow());
        assertTrue(lines.get(header).matches("RULE +PATH +MESSAGE"), lines.get(header));
        assertTrue(lines.get(header + 1).matches("device\\.reserved +reserved\\[1] +is 0x2a: producers must zero the reserved bytes"), lines.get(header + 1));
        assertEquals("result: NOT CONFORMING: 1 violation of 1 rule", lines.getLast());
    }
}
