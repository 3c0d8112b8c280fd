package dev.quiver;

import dev.quiver.internal.validate.SchemaReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

/**
 * C produces malformed structs (producer_bad.c); every import must fail with an InvalidArrowException
 * naming the broken field and the rule, after calling the producer's array and schema release exactly
 * once.
 */
class BadInputImportTest {

    static Stream<Arguments> cases() {
        String tooDeep = "schema" + ".children[0]".repeat(SchemaReader.MAX_DEPTH + 1);
        return Stream.of(
                Arguments.of("negative_length", "length", "is negative (-1)"),
                Arguments.of("negative_offset", "offset", "is negative (-1)"),
                Arguments.of("offset_plus_length_overflows", "offset", "overflows"),
                Arguments.of("null_count_below_minus_one", "null_count", "is -2, must be -1 or 0..3"),
                Arguments.of("null_count_above_length", "null_count", "is 4, must be -1 or 0..3"),
                Arguments.of("null_type_with_wrong_null_count", "null_count", "every value null"),
                Arguments.of("int32_with_three_buffers", "n_buffers", "is 3 but format \"i\" has 2 buffers"),
                Arguments.of("utf8_with_two_buffers", "n_buffers", "is 2 but format \"u\" has 3 buffers"),
                Arguments.of("struct_member_utf8_with_two_buffers", "children[1].n_buffers", "format \"u\" has 3 buffers"),
                Arguments.of("int32_array_with_a_child", "n_children", "is 1 but the schema has 0 children"),
                Arguments.of("list_schema_with_two_children", "schema.n_children", "is 2 but format \"+l\" needs 1"),
                Arguments.of("struct_array_missing_a_member", "n_children", "is 1 but the schema has 2 children"),
                Arguments.of("int32_null_data", "buffers[1]", "data buffer is NULL but length is 3"),
                Arguments.of("utf8_null_offsets", "buffers[1]", "offsets buffer is NULL but length is 3"),
                Arguments.of("validity_null_with_nulls", "buffers[0]", "validity buffer is NULL but null_count is 1"),
                Arguments.of("struct_member_utf8_null_offsets", "children[1].buffers[1]", "offsets buffer is NULL"),
                Arguments.of("list_items_null_data", "children[0].buffers[1]", "data buffer is NULL"),
                Arguments.of("buffers_pointer_null", "buffers", "is NULL but n_buffers is 2"),
                Arguments.of("unknown_format", "schema.format", "unknown format string \"Q\""),
                Arguments.of("struct_member_unknown_format", "schema.children[0].format", "unknown format string \"Q\""),
                Arguments.of("null_format", "schema.format", "is NULL"),
                Arguments.of("struct_member_null_format", "schema.children[1].format", "is NULL"),
                Arguments.of("unknown_schema_flags", "schema.flags", "unknown flag bits 0x40"),
                Arguments.of("lists_nested_65_deep", tooDeep, "nesting deeper than " + SchemaReader.MAX_DEPTH + " levels"),
                Arguments.of("lists_nested_100_deep", tooDeep, "nesting deeper than " + SchemaReader.MAX_DEPTH + " levels"),
                Arguments.of("list_array_null_child", "children[0]", "is NULL"),
                Arguments.of("list_schema_null_child", "schema.children[0]", "is NULL"),
                Arguments.of("list_array_children_pointer_null", "children", "is NULL but n_children is 1"),
                Arguments.of("list_array_released_child", "children[0].release", "the array is released"),
                Arguments.of("list_schema_released_child", "schema.children[0].release", "the schema is released"),
                Arguments.of("struct_member_shorter_than_struct", "children[0].length", "shorter than the parent struct"),
                Arguments.of("cpu_array_with_sync_event", "sync_event", "CPU arrays have no events"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("cases")
    void rejectedWithFieldPathAndReleasedOnce(String name, String path, String rule) {
        ImportAssertions.assertImportRejected(name, ProducerTrust.fromEnvironment(), path, rule);
    }
}
