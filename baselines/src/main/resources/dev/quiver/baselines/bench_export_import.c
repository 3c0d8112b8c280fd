/*
 * The C limit for export + import + release of a record batch through the Arrow C Data Interface.
 * bench_export_import_release() does, per iteration, what a C producer and consumer do for a batch whose
 * buffers already exist: the producer builds an ArrowArray tree and an ArrowSchema tree over the buffers
 * (malloc'd structs, copied format and name strings, its own release callbacks); the consumer moves both
 * in, checks every node (format known, n_buffers and n_children against the format, lengths), and
 * releases them. No buffer is copied. The producer and consumer sides are kept out of line and the
 * allocator is not treated as a builtin (-fno-builtin-malloc -fno-builtin-free), so the compiler cannot
 * elide the malloc/free pairs that a real producer and consumer in separate libraries would make.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "arrow_c_abi.h"

__attribute__((noinline)) static char* copy_string(const char* s) {
  if (s == NULL) return NULL;
  size_t n = strlen(s) + 1;
  char* out = malloc(n);
  memcpy(out, s, n);
  return out;
}

__attribute__((noinline)) static void release_array(struct ArrowArray* a) {
  for (int64_t i = 0; i < a->n_children; i++) {
    if (a->children[i]->release != NULL) a->children[i]->release(a->children[i]);
    free(a->children[i]);
  }
  free(a->children);
  free((void*)a->buffers);
  a->release = NULL;
}

__attribute__((noinline)) static void release_schema(struct ArrowSchema* s) {
  for (int64_t i = 0; i < s->n_children; i++) {
    if (s->children[i]->release != NULL) s->children[i]->release(s->children[i]);
    free(s->children[i]);
  }
  free(s->children);
  free((void*)s->format);
  free((void*)s->name);
  s->release = NULL;
}

__attribute__((noinline)) static void export_array(const struct ArrowArray* from, struct ArrowArray* out) {
  *out = *from;
  out->buffers = malloc(sizeof(void*) * (size_t)(from->n_buffers ? from->n_buffers : 1));
  memcpy((void*)out->buffers, from->buffers, sizeof(void*) * (size_t)from->n_buffers);
  out->children = malloc(sizeof(struct ArrowArray*) * (size_t)(from->n_children ? from->n_children : 1));
  for (int64_t i = 0; i < from->n_children; i++) {
    out->children[i] = malloc(sizeof(struct ArrowArray));
    export_array(from->children[i], out->children[i]);
  }
  out->dictionary = NULL;
  out->private_data = NULL;
  out->release = release_array;
}

__attribute__((noinline)) static void export_schema(const struct ArrowSchema* from, struct ArrowSchema* out) {
  *out = *from;
  out->format = copy_string(from->format);
  out->name = copy_string(from->name);
  out->metadata = NULL;
  out->children = malloc(sizeof(struct ArrowSchema*) * (size_t)(from->n_children ? from->n_children : 1));
  for (int64_t i = 0; i < from->n_children; i++) {
    out->children[i] = malloc(sizeof(struct ArrowSchema));
    export_schema(from->children[i], out->children[i]);
  }
  out->dictionary = NULL;
  out->private_data = NULL;
  out->release = release_schema;
}

static int expected_buffers(const char* f) {
  if (strcmp(f, "+s") == 0) return 1;
  if (strcmp(f, "+l") == 0) return 2;
  if (strcmp(f, "u") == 0 || strcmp(f, "z") == 0) return 3;
  if (f[1] == 0 && strchr("bcCsSiIlLefg", f[0]) != NULL) return 2;
  return -1;
}

/* The consumer's structural check; returns the number of nodes, or -1. */
__attribute__((noinline)) static int64_t check(const struct ArrowArray* a, const struct ArrowSchema* s) {
  if (a->release == NULL || s->release == NULL || s->format == NULL) return -1;
  if (a->length < 0 || a->offset < 0 || a->null_count < -1 || a->null_count > a->length) return -1;
  if (a->n_buffers != expected_buffers(s->format) || a->n_children != s->n_children) return -1;
  if (a->n_buffers >= 2 && a->buffers[1] == NULL && a->length > 0) return -1; /* data or offsets required */
  int64_t nodes = 1;
  for (int64_t i = 0; i < a->n_children; i++) {
    int64_t n = check(a->children[i], s->children[i]);
    if (n < 0) return -1;
    nodes += n;
  }
  return nodes;
}

int64_t bench_export_import_release(const struct ArrowArray* batch, const struct ArrowSchema* schema, int64_t iterations) {
  int64_t total = 0;
  for (int64_t i = 0; i < iterations; i++) {
    struct ArrowArray exported;
    struct ArrowSchema exported_schema;
    export_array(batch, &exported);
    export_schema(schema, &exported_schema);
    struct ArrowArray imported = exported;
    struct ArrowSchema imported_schema = exported_schema;
    exported.release = NULL;
    exported_schema.release = NULL;
    int64_t nodes = check(&imported, &imported_schema);
    if (nodes < 0) return -1;
    total += nodes;
    imported.release(&imported);
    imported_schema.release(&imported_schema);
  }
  return total;
}
