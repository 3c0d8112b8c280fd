/*
 * Malformed arrays, one per case name: a well-formed array with one field broken. The producer's
 * structs still own everything they allocated, so release frees it all whatever was patched.
 * BadInputImportTest holds the field path and rule Java must report for each.
 */
#include <string.h>
#include "producer.h"

void p_int32_3(struct ArrowArray* a, struct ArrowSchema* s, const char* mask) {
  const int32_t v[] = {1, 2, 3};
  p_fixed(a, s, "i", "int32", v, sizeof v[0], 3, mask);
}

void p_utf8_3(struct ArrowArray* a, struct ArrowSchema* s) {
  const char* const v[] = {"a", "bb", "ccc"};
  p_utf8(a, s, "utf8", v, 3);
}

void p_list_3(struct ArrowArray* a, struct ArrowSchema* s) {
  const int32_t offsets[] = {0, 1, 2, 3};
  p_schema(s, "+l", "list", 1);
  p_array(a, 3, 0, 2, 1);
  p_buffer(a, 1, offsets, sizeof offsets);
  p_int32_3(p_array_child(a, 0), p_schema_child(s, 0), NULL);
}

/* struct{a: int32, b: utf8} of length 3 */
void p_struct_3(struct ArrowArray* a, struct ArrowSchema* s) {
  p_schema(s, "+s", "struct", 2);
  p_array(a, 3, 0, 1, 2);
  p_int32_3(p_array_child(a, 0), p_schema_child(s, 0), NULL);
  p_utf8_3(p_array_child(a, 1), p_schema_child(s, 1));
}

static int build(const char* name, struct ArrowDeviceArray* d, struct ArrowSchema* s) {
  static int event;
  struct ArrowArray* a = &d->array;
#define CASE(n) if (strcmp(name, n) == 0)
  CASE("negative_length") { p_int32_3(a, s, NULL); a->length = -1; return 0; }
  CASE("negative_offset") { p_int32_3(a, s, NULL); a->offset = -1; return 0; }
  CASE("offset_plus_length_overflows") { p_int32_3(a, s, NULL); a->offset = INT64_MAX - 1; return 0; }
  CASE("null_count_below_minus_one") { p_int32_3(a, s, NULL); a->null_count = -2; return 0; }
  CASE("null_count_above_length") { p_int32_3(a, s, "101"); a->null_count = 4; return 0; }
  CASE("null_type_with_wrong_null_count") { p_schema(s, "n", "n", 0); p_array(a, 3, 0, 0, 0); a->null_count = 1; return 0; }
  CASE("int32_with_three_buffers") { p_int32_3(a, s, NULL); a->n_buffers = 3; return 0; }
  CASE("utf8_with_two_buffers") { p_utf8_3(a, s); a->n_buffers = 2; return 0; }
  CASE("struct_member_utf8_with_two_buffers") { p_struct_3(a, s); a->children[1]->n_buffers = 2; return 0; }
  CASE("int32_array_with_a_child") {
    /* a list array (validity, offsets, one child) under an int32 schema */
    struct ArrowSchema list_schema;
    p_list_3(a, &list_schema);
    list_schema.release(&list_schema);
    p_schema(s, "i", "int32", 0);
    return 0;
  }
  CASE("list_schema_with_two_children") { p_struct_3(a, s); strcpy((char*) s->format, "+l"); return 0; }
  CASE("struct_array_missing_a_member") { p_struct_3(a, s); a->n_children = 1; return 0; }
  CASE("int32_null_data") { p_int32_3(a, s, NULL); a->buffers[1] = NULL; return 0; }
  CASE("utf8_null_offsets") { p_utf8_3(a, s); a->buffers[1] = NULL; return 0; }
  CASE("validity_null_with_nulls") { p_int32_3(a, s, "101"); a->buffers[0] = NULL; return 0; }
  CASE("struct_member_utf8_null_offsets") { p_struct_3(a, s); a->children[1]->buffers[1] = NULL; return 0; }
  CASE("list_items_null_data") { p_list_3(a, s); a->children[0]->buffers[1] = NULL; return 0; }
  CASE("buffers_pointer_null") { p_int32_3(a, s, NULL); a->buffers = NULL; return 0; }
  CASE("unknown_format") { p_int32_3(a, s, NULL); strcpy((char*) s->format, "Q"); return 0; }
  CASE("struct_member_unknown_format") { p_struct_3(a, s); strcpy((char*) s->children[0]->format, "Q"); return 0; }
  CASE("null_format") { p_int32_3(a, s, NULL); s->format = NULL; return 0; }
  CASE("struct_member_null_format") { p_struct_3(a, s); s->children[1]->format = NULL; return 0; }
  CASE("unknown_schema_flags") { p_int32_3(a, s, NULL); s->flags |= 64; return 0; }
  CASE("lists_nested_65_deep") { p_nested_lists(a, s, 65); return 0; }
  CASE("lists_nested_100_deep") { p_nested_lists(a, s, 100); return 0; }
  CASE("list_array_null_child") { p_list_3(a, s); a->children[0] = NULL; return 0; }
  CASE("list_schema_null_child") { p_list_3(a, s); s->children[0] = NULL; return 0; }
  CASE("list_array_children_pointer_null") { p_list_3(a, s); a->children = NULL; return 0; }
  CASE("list_array_released_child") { p_list_3(a, s); a->children[0]->release(a->children[0]); return 0; }
  CASE("list_schema_released_child") { p_list_3(a, s); s->children[0]->release(s->children[0]); return 0; }
  CASE("struct_member_shorter_than_struct") { p_struct_3(a, s); a->children[0]->length = 2; return 0; }
  CASE("cpu_array_with_sync_event") { p_int32_3(a, s, NULL); d->sync_event = &event; return 0; }
  CASE("released_array") { p_int32_3(a, s, NULL); a->release(a); return 0; }
  CASE("released_schema") { p_int32_3(a, s, NULL); s->release(s); return 0; }
#undef CASE
  return -1;
}

int p_bad_case(const char* name, struct ArrowDeviceArray* d, struct ArrowSchema* s) {
  return build(name, d, s);
}
