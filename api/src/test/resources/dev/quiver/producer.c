/* The producer's node builders, release callbacks, counters and entry points (see producer.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "producer.h"

enum {
  ROOT_ARRAY_RELEASES, ROOT_SCHEMA_RELEASES, ARRAY_RELEASES, SCHEMA_RELEASES,
  LIVE_ARRAY_NODES, LIVE_SCHEMA_NODES, RELEASES_OF_RELEASED, N_COUNTERS
};
static atomic_llong counters[N_COUNTERS];

#define MAX_OWNED 8

/* What one node allocated. kids is our own copy of the child pointers, so that a test patching
 * children[] still frees what it made. */
struct Private {
  int root;
  int64_t n_kids;
  void** kids;
  int n_owned;
  void* owned[MAX_OWNED];
};

static void* xcalloc(size_t n, size_t size) {
  void* p = calloc(n == 0 ? 1 : n, size);
  if (p == NULL) abort();
  return p;
}

static void own(struct Private* p, void* memory) {
  if (p->n_owned == MAX_OWNED) abort();
  p->owned[p->n_owned++] = memory;
}

static void free_private(struct Private* p) {
  for (int i = 0; i < p->n_owned; i++) free(p->owned[i]);
  free(p->kids);
  free(p);
}

static void release_array(struct ArrowArray* a) {
  if (a->release == NULL) {
    atomic_fetch_add(&counters[RELEASES_OF_RELEASED], 1);
    return;
  }
  struct Private* p = a->private_data;
  for (int64_t i = 0; i < p->n_kids; i++) {
    struct ArrowArray* child = p->kids[i];
    if (child != NULL && child->release != NULL) child->release(child);
    free(child);
  }
  if (p->root) atomic_fetch_add(&counters[ROOT_ARRAY_RELEASES], 1);
  free_private(p);
  atomic_fetch_add(&counters[ARRAY_RELEASES], 1);
  atomic_fetch_sub(&counters[LIVE_ARRAY_NODES], 1);
  a->private_data = NULL;
  a->release = NULL;
}

static void release_schema(struct ArrowSchema* s) {
  if (s->release == NULL) {
    atomic_fetch_add(&counters[RELEASES_OF_RELEASED], 1);
    return;
  }
  struct Private* p = s->private_data;
  for (int64_t i = 0; i < p->n_kids; i++) {
    struct ArrowSchema* child = p->kids[i];
    if (child != NULL && child->release != NULL) child->release(child);
    free(child);
  }
  if (p->root) atomic_fetch_add(&counters[ROOT_SCHEMA_RELEASES], 1);
  free_private(p);
  atomic_fetch_add(&counters[SCHEMA_RELEASES], 1);
  atomic_fetch_sub(&counters[LIVE_SCHEMA_NODES], 1);
  s->private_data = NULL;
  s->release = NULL;
}

void p_array(struct ArrowArray* a, int64_t length, int64_t offset, int64_t n_buffers, int64_t n_children) {
  struct Private* p = xcalloc(1, sizeof *p);
  memset(a, 0, sizeof *a);
  a->length = length;
  a->offset = offset;
  a->n_buffers = n_buffers;
  a->n_children = n_children;
  a->buffers = xcalloc((size_t) n_buffers + 1, sizeof(void*));
  own(p, (void*) a->buffers);
  if (n_children > 0) {
    a->children = xcalloc((size_t) n_children, sizeof(void*));
    own(p, a->children);
    p->kids = xcalloc((size_t) n_children, sizeof(void*));
    p->n_kids = n_children;
  }
  a->private_data = p;
  a->release = release_array;
  atomic_fetch_add(&counters[LIVE_ARRAY_NODES], 1);
}

struct ArrowArray* p_array_child(struct ArrowArray* parent, int64_t i) {
  struct Private* p = parent->private_data;
  struct ArrowArray* child = xcalloc(1, sizeof *child);
  p->kids[i] = child;
  parent->children[i] = child;
  return child;
}

void p_buffer(struct ArrowArray* a, int64_t i, const void* bytes, size_t size) {
  void* copy = xcalloc(size, 1);
  if (size > 0) memcpy(copy, bytes, size);
  own(a->private_data, copy);
  a->buffers[i] = copy;
}

void p_validity(struct ArrowArray* a, const char* mask) {
  a->null_count = 0;
  if (mask == NULL) return;
  size_t n = strlen(mask);
  uint8_t* bits = xcalloc((n + 7) / 8, 1);
  for (size_t i = 0; i < n; i++) {
    if (mask[i] == '1') {
      bits[i / 8] |= (uint8_t) (1u << (i % 8));
    } else if ((int64_t) i >= a->offset && (int64_t) i < a->offset + a->length) {
      a->null_count++;
    }
  }
  own(a->private_data, bits);
  a->buffers[0] = bits;
}

static char* copy_string(const char* s) {
  if (s == NULL) return NULL;
  char* copy = xcalloc(strlen(s) + 1, 1);
  strcpy(copy, s);
  return copy;
}

void p_schema(struct ArrowSchema* s, const char* format, const char* name, int64_t n_children) {
  struct Private* p = xcalloc(1, sizeof *p);
  memset(s, 0, sizeof *s);
  s->format = copy_string(format);
  own(p, (void*) s->format);
  s->name = copy_string(name);
  own(p, (void*) s->name);
  s->flags = ARROW_FLAG_NULLABLE;
  s->n_children = n_children;
  if (n_children > 0) {
    s->children = xcalloc((size_t) n_children, sizeof(void*));
    own(p, s->children);
    p->kids = xcalloc((size_t) n_children, sizeof(void*));
    p->n_kids = n_children;
  }
  s->private_data = p;
  s->release = release_schema;
  atomic_fetch_add(&counters[LIVE_SCHEMA_NODES], 1);
}

struct ArrowSchema* p_schema_child(struct ArrowSchema* parent, int64_t i) {
  struct Private* p = parent->private_data;
  struct ArrowSchema* child = xcalloc(1, sizeof *child);
  p->kids[i] = child;
  parent->children[i] = child;
  return child;
}

struct ArrowSchema* p_schema_dictionary(struct ArrowSchema* parent) {
  struct Private* p = parent->private_data;
  void** kids = realloc(p->kids, (size_t) (p->n_kids + 1) * sizeof(void*));
  if (kids == NULL) abort();
  struct ArrowSchema* dictionary = xcalloc(1, sizeof *dictionary);
  kids[p->n_kids++] = dictionary;
  p->kids = kids;
  parent->dictionary = dictionary;
  return dictionary;
}

void p_fixed(struct ArrowArray* a, struct ArrowSchema* s, const char* format, const char* name,
             const void* values, size_t width, int64_t n, const char* mask) {
  p_schema(s, format, name, 0);
  p_array(a, n, 0, 2, 0);
  p_validity(a, mask);
  if (n > 0) p_buffer(a, 1, values, width * (size_t) n);
}

void p_bool(struct ArrowArray* a, struct ArrowSchema* s, const char* name, const char* bits, const char* mask) {
  size_t n = strlen(bits);
  uint8_t packed[64] = {0};
  for (size_t i = 0; i < n; i++) {
    if (bits[i] == '1') packed[i / 8] |= (uint8_t) (1u << (i % 8));
  }
  p_schema(s, "b", name, 0);
  p_array(a, (int64_t) n, 0, 2, 0);
  p_validity(a, mask);
  p_buffer(a, 1, packed, (n + 7) / 8);
}

void p_varlen(struct ArrowArray* a, struct ArrowSchema* s, const char* format, const char* name,
              const int32_t* offsets, int64_t n, const void* data, size_t data_size, const char* mask) {
  p_schema(s, format, name, 0);
  p_array(a, n, 0, 3, 0);
  p_validity(a, mask);
  p_buffer(a, 1, offsets, sizeof(int32_t) * (size_t) (n + 1));
  if (data_size > 0) p_buffer(a, 2, data, data_size);
}

void p_utf8(struct ArrowArray* a, struct ArrowSchema* s, const char* name, const char* const* values, int64_t n) {
  int32_t offsets[65] = {0};
  char mask[65] = {0};
  char data[1024];
  size_t at = 0;
  int any_null = 0;
  for (int64_t i = 0; i < n; i++) {
    if (values[i] != NULL) {
      size_t len = strlen(values[i]);
      memcpy(data + at, values[i], len);
      at += len;
    }
    offsets[i + 1] = (int32_t) at;
    mask[i] = values[i] != NULL ? '1' : '0';
    any_null |= values[i] == NULL;
  }
  p_varlen(a, s, "u", name, offsets, n, data, at, any_null ? mask : NULL);
}

/* ---- entry points, called from Java ---------------------------------------------------------- */

/* Builds case `name` into d (device_type, device_id -1, no event, reserved zero) and s. */
int produce(const char* name, int32_t device_type, struct ArrowDeviceArray* d, struct ArrowSchema* s) {
  memset(d, 0, sizeof *d);
  memset(s, 0, sizeof *s);
  int rc = p_good_case(name, d, s);
  if (rc != 0) rc = p_bad_case(name, d, s);
  if (rc != 0) rc = p_hostile_case(name, d, s);
  if (rc != 0) return rc;
  d->device_type = device_type;
  d->device_id = -1;
  if (d->array.private_data != NULL) ((struct Private*) d->array.private_data)->root = 1;
  if (s->private_data != NULL) ((struct Private*) s->private_data)->root = 1;
  return 0;
}

/* Copies the counters into out[N_COUNTERS]; returns N_COUNTERS. */
int producer_counters(int64_t* out) {
  for (int i = 0; i < N_COUNTERS; i++) out[i] = atomic_load(&counters[i]);
  return N_COUNTERS;
}

/* Calls the release callbacks a consumer handed back (those not NULL); 0 if both end up released. */
int producer_release(struct ArrowDeviceArray* d, struct ArrowSchema* s) {
  if (d != NULL && d->array.release != NULL) d->array.release(&d->array);
  if (s != NULL && s->release != NULL) s->release(s);
  return (d == NULL || d->array.release == NULL) && (s == NULL || s->release == NULL) ? 0 : 1;
}
