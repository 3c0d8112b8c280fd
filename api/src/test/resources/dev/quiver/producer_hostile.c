/*
 * Hostile arrays, one per case name, one attack each: pointers into memory that cannot be read, counts
 * and sizes that run past the memory behind them, invalid data a reader must not trust, and lengths no
 * reader may allocate or loop for. HostileProducerTest and HugeLengthTest hold what Java must do with
 * each. The producer's nodes still own everything they allocated, so release frees it all whatever was
 * patched.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and sysconf under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "producer.h"

/* What a slot past the end of a short pointer array holds: no address any process maps. */
#define GARBAGE ((const void*) 0x4141414141414141ULL)

/*
 * Maps a readable page followed by a PROT_NONE page and returns the start of the PROT_NONE page: reading
 * it faults, as reading unmapped memory does. Never unmapped, so that no address ever turns from readable
 * to unreadable under a cached map of the process's readable memory; a case costs two pages.
 */
static char* guard(void) {
  size_t page = (size_t) sysconf(_SC_PAGESIZE);
  char* at = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (at == MAP_FAILED || mprotect(at + page, page, PROT_NONE) != 0) abort();
  return at + page;
}

/* A copy of `size` bytes that ends exactly where unreadable memory begins; no terminator is added. */
static void* at_page_end(const void* bytes, size_t size) {
  char* end = guard();
  memcpy(end - size, bytes, size);
  return end - size;
}

/* Moves buffer i (`size` bytes) to a page end; the original stays owned by the node and is freed. */
static void buffer_at_page_end(struct ArrowArray* a, int64_t i, size_t size) {
  a->buffers[i] = at_page_end(a->buffers[i], size);
}

/* int64 [1, 2, 3, 4] whose data buffer ends at a page end. */
static void int64_4(struct ArrowArray* a, struct ArrowSchema* s) {
  const int64_t v[] = {1, 2, 3, 4};
  p_fixed(a, s, "l", "int64", v, sizeof v[0], 4, NULL);
  buffer_at_page_end(a, 1, sizeof v);
}

/* Binary or utf8 views ("vz", "vu") ["ab", "cde"], both inline: validity (NULL), views, variadic sizes (none). */
static void views_2(struct ArrowArray* a, struct ArrowSchema* s, const char* format) {
  uint8_t views[32] = {0};
  const int64_t no_sizes = 0;
  views[0] = 2;
  memcpy(views + 4, "ab", 2);
  views[16] = 3;
  memcpy(views + 20, "cde", 3);
  p_schema(s, format, "views", 0);
  p_array(a, 2, 0, 3, 0);
  p_buffer(a, 1, views, sizeof views);
  p_buffer(a, 2, &no_sizes, sizeof no_sizes);
}

/* The three real buffer pointers of views_2 followed by two garbage slots, n_buffers counting all five:
 * the garbage is read as a variadic buffer and as the sizes buffer. */
static void views_with_garbage_slots(struct ArrowArray* a, struct ArrowSchema* s) {
  views_2(a, s, "vu");
  const void* slots[5] = {a->buffers[0], a->buffers[1], a->buffers[2], GARBAGE, GARBAGE};
  a->buffers = at_page_end(slots, sizeof slots);
  a->n_buffers = 5;
}

/* Run-end encoded int64 whose run ends decrease: [2, 1]. */
static void decreasing_run_ends(struct ArrowArray* a, struct ArrowSchema* s) {
  const int32_t ends[] = {2, 1};
  const int64_t values[] = {10, 20};
  p_schema(s, "+r", "runs", 2);
  p_array(a, 2, 0, 0, 2);
  p_fixed(p_array_child(a, 0), p_schema_child(s, 0), "i", "run_ends", ends, sizeof ends[0], 2, NULL);
  p_fixed(p_array_child(a, 1), p_schema_child(s, 1), "l", "values", values, sizeof values[0], 2, NULL);
  s->children[0]->flags = 0;
}

/* List view over int32 [1, 2, 3] whose second list has size -1. */
static void negative_list_view_size(struct ArrowArray* a, struct ArrowSchema* s) {
  const int32_t offsets[] = {0, 1};
  const int32_t sizes[] = {1, -1};
  p_schema(s, "+vl", "list_view", 1);
  p_array(a, 2, 0, 3, 1);
  p_buffer(a, 1, offsets, sizeof offsets);
  p_buffer(a, 2, sizes, sizeof sizes);
  p_int32_3(p_array_child(a, 0), p_schema_child(s, 0), NULL);
}

/* int8 indices [0, 1, 0] into a utf8 dictionary, whose array pointer is unreadable. */
static void unreadable_dictionary(struct ArrowArray* a, struct ArrowSchema* s) {
  const int8_t indices[] = {0, 1, 0};
  p_fixed(a, s, "c", "dictionary_encoded", indices, sizeof indices[0], 3, NULL);
  p_schema(p_schema_dictionary(s), "u", "values", 0);
  a->dictionary = (struct ArrowArray*) guard();
}

/* A null array of `length`: every value null, no buffers. */
static void nulls(struct ArrowArray* a, struct ArrowSchema* s, int64_t length) {
  p_schema(s, "n", "nulls", 0);
  p_array(a, length, 0, 0, 0);
  a->null_count = length;
}

/* A struct of `length` without validity whose one member is a null array of that length. */
static void struct_of_nulls(struct ArrowArray* a, struct ArrowSchema* s, int64_t length) {
  p_schema(s, "+s", "struct", 1);
  p_array(a, length, 0, 1, 1);
  nulls(p_array_child(a, 0), p_schema_child(s, 0), length);
}

static void* misaligned(void* pointer) {
  return (char*) pointer + 4;
}

static int build(const char* name, struct ArrowDeviceArray* d, struct ArrowSchema* s) {
  struct ArrowArray* a = &d->array;
  const int64_t huge = INT64_C(1) << 40;
#define CASE(n) if (strcmp(name, n) == 0)
  /* view arrays whose n_buffers exceeds their pointer array */
  CASE("view_utf8_n_buffers_past_buffers_array") { views_2(a, s, "vu"); a->buffers = at_page_end(a->buffers, 3 * sizeof(void*)); a->n_buffers = 1000; return 0; }
  CASE("view_binary_n_buffers_past_buffers_array") { views_2(a, s, "vz"); a->buffers = at_page_end(a->buffers, 3 * sizeof(void*)); a->n_buffers = 1000; return 0; }
  CASE("view_utf8_n_buffers_two_too_many") { views_with_garbage_slots(a, s); return 0; }
  /* sizes beyond the buffers, each buffer ending at a page end */
  CASE("int64_length_2_40_over_8_bytes") { int64_4(a, s); a->length = huge; return 0; }
  CASE("int64_offset_2_40_over_8_bytes") { int64_4(a, s); a->offset = huge; a->length = 1; return 0; }
  CASE("utf8_last_offset_1_gib") {
    const int32_t offsets[] = {0, 1 << 30};
    p_varlen(a, s, "u", "utf8", offsets, 1, "a", 1, NULL);
    buffer_at_page_end(a, 2, 1);
    return 0;
  }
  CASE("bool_length_2_40") { p_bool(a, s, "bool", "1", NULL); buffer_at_page_end(a, 1, 1); a->length = huge; return 0; }
  /* invalid data inside readable memory, or running past a buffer that ends at a page end */
  CASE("int32_offset_past_data") { p_int32_3(a, s, NULL); buffer_at_page_end(a, 1, 12); a->offset = 3; a->length = 1; return 0; }
  CASE("utf8_offset_past_data") {
    const int32_t offsets[] = {0, 2, 5};
    p_varlen(a, s, "u", "utf8", offsets, 2, "ab", 2, NULL);
    buffer_at_page_end(a, 2, 2);
    return 0;
  }
  CASE("utf8_negative_last_offset") {
    const int32_t offsets[] = {0, 2, -5};
    p_varlen(a, s, "u", "utf8", offsets, 2, "ab", 2, NULL);
    return 0;
  }
  CASE("run_ends_decreasing") { decreasing_run_ends(a, s); return 0; }
  CASE("list_view_negative_size") { negative_list_view_size(a, s); return 0; }
  /* pointers to unreadable memory */
  CASE("buffers_pointer_unreadable") { p_int32_3(a, s, NULL); a->buffers = (const void**) guard(); return 0; }
  CASE("buffer_unreadable") { p_int32_3(a, s, NULL); a->buffers[1] = guard(); return 0; }
  /* a sync_event pointer into unreadable memory (produced as a device array of a type with events) */
  CASE("sync_event_unreadable") { p_int32_3(a, s, NULL); d->sync_event = guard(); return 0; }
  CASE("children_pointer_unreadable") { p_list_3(a, s); a->children = (struct ArrowArray**) guard(); return 0; }
  CASE("child_unreadable") { p_list_3(a, s); a->children[0] = (struct ArrowArray*) guard(); return 0; }
  CASE("dictionary_unreadable") { unreadable_dictionary(a, s); return 0; }
  CASE("schema_dictionary_unreadable") { p_int32_3(a, s, NULL); s->dictionary = (struct ArrowSchema*) guard(); return 0; }
  CASE("schema_children_pointer_unreadable") { p_list_3(a, s); s->children = (struct ArrowSchema**) guard(); return 0; }
  CASE("schema_child_unreadable") { p_list_3(a, s); s->children[0] = (struct ArrowSchema*) guard(); return 0; }
  CASE("format_unreadable") { p_int32_3(a, s, NULL); s->format = guard(); return 0; }
  CASE("name_unreadable") { p_int32_3(a, s, NULL); s->name = guard(); return 0; }
  CASE("metadata_unreadable") { p_int32_3(a, s, NULL); s->metadata = guard(); return 0; }
  CASE("format_unterminated_at_page_end") { p_int32_3(a, s, NULL); s->format = at_page_end("iiii", 4); return 0; }
  CASE("name_unterminated_at_page_end") { p_int32_3(a, s, NULL); s->name = at_page_end("name", 4); return 0; }
  /* child pointers off the 8-byte alignment of C structs */
  CASE("child_misaligned") { p_list_3(a, s); a->children[0] = misaligned(a->children[0]); return 0; }
  CASE("schema_child_misaligned") { p_list_3(a, s); s->children[0] = misaligned(s->children[0]); return 0; }
  /* lengths no reader may allocate or loop for */
  CASE("null_length_2_40") { nulls(a, s, huge); return 0; }
  CASE("struct_of_nulls_length_2_40") { struct_of_nulls(a, s, huge); return 0; }
  CASE("int64_length_67m") { int64_4(a, s); a->length = INT64_C(1) << 26; return 0; }
#undef CASE
  return -1;
}

int p_hostile_case(const char* name, struct ArrowDeviceArray* d, struct ArrowSchema* s) {
  return build(name, d, s);
}
