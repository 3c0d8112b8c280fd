/* Well-formed arrays, one per case name; CProducerImportTest holds the values Java must read. */
#include <string.h>
#include "producer.h"

#define N(x) ((int64_t) (sizeof(x) / sizeof((x)[0])))

static void int32_with_nulls(struct ArrowArray* a, struct ArrowSchema* s) {
  const int32_t v[] = {1, 0, 3, -4, 0, 2147483647};
  p_fixed(a, s, "i", "int32", v, sizeof v[0], N(v), "101101");
}

static void int64_values(struct ArrowArray* a, struct ArrowSchema* s) {
  const int64_t v[] = {0, INT64_MAX, INT64_MIN, 42};
  p_fixed(a, s, "l", "int64", v, sizeof v[0], N(v), NULL);
}

static void uint8_values(struct ArrowArray* a, struct ArrowSchema* s) {
  const uint8_t v[] = {0, 255, 128, 7};
  p_fixed(a, s, "C", "uint8", v, sizeof v[0], N(v), NULL);
}

static void float32_values(struct ArrowArray* a, struct ArrowSchema* s) {
  const float v[] = {1.5f, -0.25f, 0.0f, 1024.0f};
  p_fixed(a, s, "f", "float32", v, sizeof v[0], N(v), "1101");
}

static void float64_values(struct ArrowArray* a, struct ArrowSchema* s) {
  const double v[] = {3.141592653589793, -1e300, 0.1};
  p_fixed(a, s, "g", "float64", v, sizeof v[0], N(v), NULL);
}

static void bool_values(struct ArrowArray* a, struct ArrowSchema* s) {
  p_bool(a, s, "bool", "1001101101", "1111011111");
}

static void utf8_with_nulls(struct ArrowArray* a, struct ArrowSchema* s) {
  const char* const v[] = {"hello", NULL, "", "w\xc3\xb6rld", NULL};
  p_utf8(a, s, "utf8", v, N(v));
}

static void binary_values(struct ArrowArray* a, struct ArrowSchema* s) {
  const uint8_t data[] = {0x00, 0x01, 0x02, 0xff};
  const int32_t offsets[] = {0, 3, 3, 4, 4};
  p_varlen(a, s, "z", "binary", offsets, 4, data, sizeof data, "1110");
}

/* [[1, 2], [], null, [3, 4]] */
static void list_of_int64(struct ArrowArray* a, struct ArrowSchema* s) {
  const int32_t offsets[] = {0, 2, 2, 2, 4};
  const int64_t items[] = {1, 2, 3, 4};
  p_schema(s, "+l", "list", 1);
  p_array(a, 4, 0, 2, 1);
  p_validity(a, "1101");
  p_buffer(a, 1, offsets, sizeof offsets);
  p_fixed(p_array_child(a, 0), p_schema_child(s, 0), "l", "item", items, sizeof items[0], N(items), NULL);
}

/* [{a: 1, b: "x"}, null, {a: null, b: null}, {a: 4, b: "zzz"}] */
static void struct_of_int32_utf8(struct ArrowArray* a, struct ArrowSchema* s) {
  const int32_t ints[] = {1, 2, 0, 4};
  const char* const strings[] = {"x", "yy", NULL, "zzz"};
  p_schema(s, "+s", "struct", 2);
  p_array(a, 4, 0, 1, 2);
  p_validity(a, "1011");
  p_fixed(p_array_child(a, 0), p_schema_child(s, 0), "i", "a", ints, sizeof ints[0], N(ints), "1101");
  p_utf8(p_array_child(a, 1), p_schema_child(s, 1), "b", strings, N(strings));
}

/* int32 buffer {10, 11, 12, null, 14, 15} seen through offset 2, length 3: [12, null, 14] */
static void sliced_int32(struct ArrowArray* a, struct ArrowSchema* s) {
  const int32_t v[] = {10, 11, 12, 0, 14, 15};
  p_schema(s, "i", "sliced", 0);
  p_array(a, 3, 2, 2, 0);
  p_validity(a, "111011");
  p_buffer(a, 1, v, sizeof v);
}

/* utf8 {"a", "bb", "ccc", "dddd"} through offset 1, length 2: ["bb", "ccc"] */
static void sliced_utf8(struct ArrowArray* a, struct ArrowSchema* s) {
  const char* const v[] = {"a", "bb", "ccc", "dddd"};
  p_utf8(a, s, "sliced", v, N(v));
  a->offset = 1;
  a->length = 2;
}

/* struct offset 1, length 2, over member a whose own offset is 1 into {0, 1, 2, 3}: [{a: 2}, {a: 3}] */
static void sliced_struct(struct ArrowArray* a, struct ArrowSchema* s) {
  const int32_t v[] = {0, 1, 2, 3};
  p_schema(s, "+s", "sliced", 1);
  p_array(a, 2, 1, 1, 1);
  struct ArrowArray* member = p_array_child(a, 0);
  p_fixed(member, p_schema_child(s, 0), "i", "a", v, sizeof v[0], N(v), NULL);
  member->offset = 1;
  member->length = 3;
}

static void empty_int32(struct ArrowArray* a, struct ArrowSchema* s) {
  p_fixed(a, s, "i", "empty", NULL, 4, 0, NULL);
}

static void empty_utf8(struct ArrowArray* a, struct ArrowSchema* s) {
  const int32_t offsets[] = {0};
  p_varlen(a, s, "u", "empty", offsets, 0, NULL, 0, NULL);
}

static void null_type(struct ArrowArray* a, struct ArrowSchema* s) {
  p_schema(s, "n", "nothing", 0);
  p_array(a, 3, 0, 0, 0);
  a->null_count = 3;
}

/* `depth` nested lists of one element each around int64 [7]: the leaf is at nesting depth `depth`. */
void p_nested_lists(struct ArrowArray* a, struct ArrowSchema* s, int depth) {
  const int32_t offsets[] = {0, 1};
  const int64_t leaf[] = {7};
  for (int level = 0; level < depth; level++) {
    p_schema(s, "+l", "nested", 1);
    p_array(a, 1, 0, 2, 1);
    p_buffer(a, 1, offsets, sizeof offsets);
    a = p_array_child(a, 0);
    s = p_schema_child(s, 0);
  }
  p_fixed(a, s, "l", "leaf", leaf, sizeof leaf[0], 1, NULL);
}

static void nested_64(struct ArrowArray* a, struct ArrowSchema* s) {
  p_nested_lists(a, s, 64);
}

static const struct {
  const char* name;
  void (*build)(struct ArrowArray*, struct ArrowSchema*);
} CASES[] = {
  {"int32_with_nulls", int32_with_nulls},
  {"int64", int64_values},
  {"uint8", uint8_values},
  {"float32", float32_values},
  {"float64", float64_values},
  {"bool", bool_values},
  {"utf8_with_nulls", utf8_with_nulls},
  {"binary", binary_values},
  {"list_of_int64", list_of_int64},
  {"struct_of_int32_utf8", struct_of_int32_utf8},
  {"sliced_int32", sliced_int32},
  {"sliced_utf8", sliced_utf8},
  {"sliced_struct", sliced_struct},
  {"empty_int32", empty_int32},
  {"empty_utf8", empty_utf8},
  {"null_type", null_type},
  {"nested_64", nested_64},
};

int p_good_case(const char* name, struct ArrowDeviceArray* d, struct ArrowSchema* s) {
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    if (strcmp(CASES[i].name, name) == 0) {
      CASES[i].build(&d->array, s);
      return 0;
    }
  }
  return -1;
}
