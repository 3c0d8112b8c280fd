package dev.quiver;

import dev.quiver.CProducer.Counters;
import dev.quiver.CProducer.Structs;
import dev.quiver.host.ArrayReader;
import dev.quiver.spi.DeviceTypeCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.util.stream.Stream;

import static dev.quiver.ProducerTrust.TRUSTED;
import static dev.quiver.ProducerTrust.UNTRUSTED;
import static dev.quiver.ImportAssertions.assertInvalid;

/**
 * One C producer per attack (producer_hostile.c): pointers into unreadable memory, counts and sizes that
 * run past the memory behind them, invalid data. Each must end in an InvalidArrowException naming the
 * field path and the rule, quickly, and the producer's array and schema must be released exactly once. A
 * crash of the JVM would end the whole test run, so every case that returns is one the JVM survived; the
 * timeout only detects a hang (a length of 67M on four values once ran for a minute).
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileProducerTest {
    private static final String UNREADABLE = "which is not readable host memory";

    static Stream<Arguments> rejectedAtImport() {
        return Stream.of(
                // view arrays whose n_buffers exceeds the pointer array
                Arguments.of("view_utf8_n_buffers_past_buffers_array", UNTRUSTED, "buffers", needed(8000)),
                Arguments.of("view_binary_n_buffers_past_buffers_array", UNTRUSTED, "buffers", needed(8000)),
                Arguments.of("view_utf8_n_buffers_two_too_many", UNTRUSTED, "buffers[4]", needed(16)),
                // sizes beyond the buffers
                Arguments.of("int64_length_2_40_over_8_bytes", UNTRUSTED, "buffers[1]", needed(8L << 40)),
                Arguments.of("int64_offset_2_40_over_8_bytes", UNTRUSTED, "buffers[1]", needed((1L << 40) * 8 + 8)),
                Arguments.of("utf8_last_offset_1_gib", UNTRUSTED, "buffers[2]", needed(1L << 30)),
                Arguments.of("bool_length_2_40", UNTRUSTED, "buffers[1]", needed(1L << 37)),
                Arguments.of("int32_offset_past_data", UNTRUSTED, "buffers[1]", needed(16)),
                Arguments.of("utf8_offset_past_data", UNTRUSTED, "buffers[2]", needed(5)),
                Arguments.of("utf8_negative_last_offset", UNTRUSTED, "buffers[2]", "its size cannot be known"),
                Arguments.of("int64_length_67m", UNTRUSTED, "buffers[1]", needed(8L << 26)),
                // pointers to unreadable memory
                Arguments.of("buffers_pointer_unreadable", UNTRUSTED, "buffers", needed(16)),
                Arguments.of("buffer_unreadable", UNTRUSTED, "buffers[1]", needed(12)),
                Arguments.of("children_pointer_unreadable", UNTRUSTED, "children", needed(8)),
                Arguments.of("child_unreadable", UNTRUSTED, "children[0]", needed(80)),
                Arguments.of("dictionary_unreadable", UNTRUSTED, "dictionary", needed(80)),
                Arguments.of("schema_dictionary_unreadable", UNTRUSTED, "schema.dictionary", needed(72)),
                Arguments.of("schema_children_pointer_unreadable", UNTRUSTED, "schema.children", needed(8)),
                Arguments.of("schema_child_unreadable", UNTRUSTED, "schema.children[0]", needed(72)),
                Arguments.of("format_unreadable", UNTRUSTED, "schema.format", UNREADABLE + " (1 byte needed)"),
                Arguments.of("name_unreadable", UNTRUSTED, "schema.name", UNREADABLE + " (1 byte needed)"),
                Arguments.of("metadata_unreadable", UNTRUSTED, "schema.metadata", needed(4)),
                Arguments.of("format_unterminated_at_page_end", UNTRUSTED, "schema.format", "runs into unreadable memory without a NUL terminator"),
                Arguments.of("name_unterminated_at_page_end", UNTRUSTED, "schema.name", "runs into unreadable memory without a NUL terminator"),
                // misaligned child pointers, whatever the trust
                Arguments.of("child_misaligned", TRUSTED, "children[0]", "not aligned to 8 bytes"),
                Arguments.of("child_misaligned", UNTRUSTED, "children[0]", "not aligned to 8 bytes"),
                Arguments.of("schema_child_misaligned", TRUSTED, "schema.children[0]", "not aligned to 8 bytes"),
                Arguments.of("schema_child_misaligned", UNTRUSTED, "schema.children[0]", "not aligned to 8 bytes"));
    }

    @ParameterizedTest(name = "{0} ({1}) -> {2}")
    @MethodSource("rejectedAtImport")
    void importRejects(String name, ProducerTrust trust, String path, String rule) {
        ImportAssertions.assertImportRejected(name, trust, path, rule);
    }

    /**
     * A {@code sync_event} is a host pointer whatever the device: an untrusted import checks it is readable
     * before anything waits on the event (an OpenCL array here; no backend is needed to refuse it).
     */
    @Test
    void anUnreadableSyncEventIsRefusedWhereProducersAreNotTrusted() {
        try (Arena arena = Arena.ofConfined()) {
            Counters beforeProduce = CProducer.counters();
            Structs c = CProducer.produce(arena, "sync_event_unreadable", DeviceTypeCodes.OPENCL);
            Counters afterProduce = CProducer.counters();
            assertInvalid(() -> Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS).trust(UNTRUSTED)), "sync_event", needed(8));
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
        }
    }

    /** Cases whose structs are well formed: a trusted import takes them; reading them must not. */
    static Stream<Arguments> rejectedWhenRead() {
        return Stream.of(
                Arguments.of("view_utf8_n_buffers_two_too_many", "buffers[4]", needed(16)),
                Arguments.of("int64_length_2_40_over_8_bytes", "buffers[1]", needed(8L << 40)),
                Arguments.of("int64_offset_2_40_over_8_bytes", "buffers[1]", needed((1L << 40) * 8 + 8)),
                Arguments.of("utf8_last_offset_1_gib", "buffers[2]", needed(1L << 30)),
                Arguments.of("bool_length_2_40", "buffers[1]", needed(1L << 37)),
                Arguments.of("int32_offset_past_data", "buffers[1]", needed(16)),
                Arguments.of("utf8_offset_past_data", "buffers[2]", needed(5)),
                Arguments.of("int64_length_67m", "buffers[1]", needed(8L << 26)),
                Arguments.of("run_ends_decreasing", "children[0].buffers[1]", "strictly increasing: 2 then 1 at run 1"),
                Arguments.of("list_view_negative_size", "buffers[2]", "list view 1 has negative size -1"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("rejectedWhenRead")
    void trustedImportThenReadersAndFullValidationReject(String name, String path, String rule) {
        try (Arena arena = Arena.ofConfined()) {
            Counters beforeProduce = CProducer.counters();
            Structs c = CProducer.produce(arena, name);
            Counters afterProduce = CProducer.counters();

            try (DeviceArray array = Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS).trust(TRUSTED))) {
                assertInvalid(() -> ArrayReader.of(array), path, rule);
                assertInvalid(() -> Interchange.validateFull(array), path, rule);
                CProducer.assertNothingReleasedSince(afterProduce);
            }
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
        }
    }

    private static String needed(long bytes) {
        return UNREADABLE + " (" + bytes + " bytes needed)";
    }
}
