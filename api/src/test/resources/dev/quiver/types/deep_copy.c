/*
 * A C consumer and producer of every Arrow C Data Interface type, written from the specification.
 *
 * dc_copy() consumes an exported ArrowArray and its ArrowSchema: it derives every buffer size from the
 * format string, length and offset (reading offsets, view sizes and run ends where the spec says sizes
 * live), copies the buffers into memory of its own, releases the input, and produces a new ArrowArray and
 * ArrowSchema whose release callbacks C counts. Every buffer is allocated with generous zeroed slack and
 * recorded, so a test can ask for the true capacity behind any pointer (dc_capacity).
 *
 * Release callbacks free what private_data recorded at production time, never what the (possibly
 * mutated) struct fields say, so a consumer that rejects a tampered struct can still release it safely.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "arrow_c_abi.h"

static atomic_long arrays_released;
static atomic_long schemas_released;
static atomic_long arrays_made;

/* ---- capacity registry ---------------------------------------------------------------------- */

struct allocation { uintptr_t address; int64_t capacity; };
static struct allocation* registry;
static size_t registry_count, registry_size;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static void* allocate(int64_t size) {
  int64_t capacity = size + (size < 64 ? 64 : size) + 4096;
  void* p = calloc(1, (size_t)capacity);
  if (p == NULL) return NULL;
  pthread_mutex_lock(&registry_lock);
  if (registry_count == registry_size) {
    registry_size = registry_size ? registry_size * 2 : 1024;
    registry = realloc(registry, registry_size * sizeof *registry);
  }
  registry[registry_count].address = (uintptr_t)p;
  registry[registry_count].capacity = capacity;
  registry_count++;
  pthread_mutex_unlock(&registry_lock);
  return p;
}

static void deallocate(void* p) {
  if (p == NULL) return;
  pthread_mutex_lock(&registry_lock);
  for (size_t i = 0; i < registry_count; i++) {
    if (registry[i].address == (uintptr_t)p) {
      registry[i] = registry[--registry_count];
      break;
    }
  }
  pthread_mutex_unlock(&registry_lock);
  free(p);
}

/* The capacity of the allocation that starts at p, or -1 if p is not the start of one. */
int64_t dc_capacity(const void* p) {
  int64_t result = -1;
  pthread_mutex_lock(&registry_lock);
  for (size_t i = 0; i < registry_count; i++) {
    if (registry[i].address == (uintptr_t)p) { result = registry[i].capacity; break; }
  }
  pthread_mutex_unlock(&registry_lock);
  return result;
}

long dc_arrays_released(void) { return atomic_load(&arrays_released); }
long dc_schemas_released(void) { return atomic_load(&schemas_released); }
long dc_arrays_made(void) { return atomic_load(&arrays_made); }

/* ---- sizes from the format string ----------------------------------------------------------- */

enum { ERR_NONE = 0, ERR_RELEASED = 1, ERR_FORMAT = 2, ERR_BUFFERS = 3, ERR_CHILDREN = 4, ERR_MEMORY = 5 };

static int64_t fixed_width(const char* f) {
  if (f[1] == 0) {
    switch (f[0]) {
      case 'c': case 'C': return 1;
      case 's': case 'S': case 'e': return 2;
      case 'i': case 'I': case 'f': return 4;
      case 'l': case 'L': case 'g': return 8;
      default: return 0;
    }
  }
  if (f[0] == 'w' && f[1] == ':') return atol(f + 2);
  if (f[0] == 'd' && f[1] == ':') {
    const char* comma = strchr(f + 2, ',');
    const char* second = comma ? strchr(comma + 1, ',') : NULL;
    return second ? atol(second + 1) / 8 : 16;
  }
  if (strcmp(f, "tdD") == 0 || strcmp(f, "tts") == 0 || strcmp(f, "ttm") == 0 || strcmp(f, "tiM") == 0) return 4;
  if (strcmp(f, "tdm") == 0 || strcmp(f, "ttu") == 0 || strcmp(f, "ttn") == 0 || strcmp(f, "tiD") == 0) return 8;
  if (strncmp(f, "ts", 2) == 0 || strncmp(f, "tD", 2) == 0) return 8;
  if (strcmp(f, "tin") == 0) return 16;
  return 0;
}

static int64_t read_offset(const void* buffer, int64_t index, int wide) {
  return wide ? ((const int64_t*)buffer)[index] : ((const int32_t*)buffer)[index];
}

struct node_data {
  void** buffers;            /* what release frees: a private copy, never the struct's array */
  const void** struct_buffers;
  int64_t n_buffers;
  struct ArrowArray** children;
  struct ArrowArray** struct_children;
  int64_t n_children;
  struct ArrowArray* dictionary;
  int root;
};

static void release_array(struct ArrowArray* array) {
  struct node_data* data = (struct node_data*)array->private_data;
  for (int64_t i = 0; i < data->n_children; i++) {
    struct ArrowArray* child = data->children[i];
    if (child->release != NULL) child->release(child);
    free(child);
  }
  if (data->dictionary != NULL) {
    if (data->dictionary->release != NULL) data->dictionary->release(data->dictionary);
    free(data->dictionary);
  }
  for (int64_t i = 0; i < data->n_buffers; i++) deallocate(data->buffers[i]);
  free(data->buffers);
  free(data->children);
  free(data->struct_buffers);
  free(data->struct_children);
  int root = data->root;
  free(data);
  array->release = NULL;
  if (root) atomic_fetch_add(&arrays_released, 1);
}

static int copy_buffer(const void* from, int64_t size, void** to) {
  if (from == NULL) { *to = NULL; return ERR_NONE; }
  *to = allocate(size);
  if (*to == NULL) return ERR_MEMORY;
  if (size > 0) memcpy(*to, from, (size_t)size);
  return ERR_NONE;
}

static int copy_array(const struct ArrowArray* in, const struct ArrowSchema* schema, struct ArrowArray* out, int root);

static int expected_buffers(const char* f, int64_t n_buffers) {
  if (strcmp(f, "n") == 0 || strcmp(f, "+r") == 0) return 0;
  if (strcmp(f, "vz") == 0 || strcmp(f, "vu") == 0) return n_buffers >= 3 ? (int)n_buffers : -1;
  if (strcmp(f, "+s") == 0 || strncmp(f, "+w:", 3) == 0 || strncmp(f, "+us:", 4) == 0) return 1;
  if (strcmp(f, "+l") == 0 || strcmp(f, "+L") == 0 || strcmp(f, "+m") == 0 || strncmp(f, "+ud:", 4) == 0) return 2;
  if (strcmp(f, "z") == 0 || strcmp(f, "u") == 0 || strcmp(f, "Z") == 0 || strcmp(f, "U") == 0) return 3;
  if (strcmp(f, "+vl") == 0 || strcmp(f, "+vL") == 0) return 3;
  if (strcmp(f, "b") == 0 || fixed_width(f) > 0 || strcmp(f, "w:0") == 0) return 2;
  return -1;
}

static int copy_array(const struct ArrowArray* in, const struct ArrowSchema* schema, struct ArrowArray* out, int root) {
  const char* f = schema->format;
  if (in->release == NULL) return ERR_RELEASED;
  int expected = expected_buffers(f, in->n_buffers);
  if (expected < 0) return ERR_FORMAT;
  if (in->n_buffers != expected) return ERR_BUFFERS;
  if (in->n_children != schema->n_children) return ERR_CHILDREN;
  int64_t end = in->offset + in->length;
  struct node_data* data = calloc(1, sizeof *data);
  data->root = root;
  data->n_buffers = in->n_buffers;
  data->buffers = calloc((size_t)in->n_buffers + 8, sizeof(void*));
  data->n_children = in->n_children;
  data->children = calloc((size_t)in->n_children + 8, sizeof(struct ArrowArray*));
  int rc = ERR_NONE;
  int has_validity = !(strcmp(f, "n") == 0 || strcmp(f, "+r") == 0 || strncmp(f, "+u", 2) == 0);
  for (int64_t i = 0; i < in->n_buffers && rc == ERR_NONE; i++) {
    const void* b = in->buffers[i];
    int64_t size = 0;
    if (i == 0 && has_validity) {
      size = (end + 7) / 8;
    } else if (strcmp(f, "b") == 0) {
      size = (end + 7) / 8;
    } else if (fixed_width(f) > 0 || strncmp(f, "w:", 2) == 0) {
      size = end * fixed_width(f);
    } else if (strcmp(f, "z") == 0 || strcmp(f, "u") == 0 || strcmp(f, "Z") == 0 || strcmp(f, "U") == 0
               || strcmp(f, "+l") == 0 || strcmp(f, "+L") == 0 || strcmp(f, "+m") == 0) {
      int wide = f[0] == 'Z' || f[0] == 'U' || strcmp(f, "+L") == 0;
      if (i == 1) size = b == NULL ? 0 : (end + 1) * (wide ? 8 : 4);
      else size = in->buffers[1] == NULL || in->length == 0 ? 0 : read_offset(in->buffers[1], end, wide);
    } else if (strcmp(f, "vz") == 0 || strcmp(f, "vu") == 0) {
      int64_t variadic = in->n_buffers - 3;
      if (i == 1) size = end * 16;
      else if (i == in->n_buffers - 1) size = variadic * 8;
      else size = ((const int64_t*)in->buffers[in->n_buffers - 1])[i - 2];
    } else if (strcmp(f, "+vl") == 0 || strcmp(f, "+vL") == 0) {
      size = end * (f[2] == 'L' ? 8 : 4);
    } else if (strncmp(f, "+u", 2) == 0) {
      size = i == 0 ? end : end * 4;
    }
    rc = copy_buffer(b, size, &data->buffers[i]);
  }
  for (int64_t i = 0; i < in->n_children && rc == ERR_NONE; i++) {
    data->children[i] = calloc(1, sizeof(struct ArrowArray));
    rc = copy_array(in->children[i], schema->children[i], data->children[i], 0);
    if (rc != ERR_NONE) { free(data->children[i]); data->children[i] = NULL; data->n_children = i; }
  }
  if (rc == ERR_NONE && schema->dictionary != NULL) {
    if (in->dictionary == NULL) rc = ERR_CHILDREN;
    else {
      data->dictionary = calloc(1, sizeof(struct ArrowArray));
      rc = copy_array(in->dictionary, schema->dictionary, data->dictionary, 0);
      if (rc != ERR_NONE) { free(data->dictionary); data->dictionary = NULL; }
    }
  }
  out->length = in->length;
  out->null_count = in->null_count;
  out->offset = in->offset;
  out->n_buffers = in->n_buffers;
  out->n_children = in->n_children;
  data->struct_buffers = calloc((size_t)in->n_buffers + 8, sizeof(void*));
  memcpy(data->struct_buffers, data->buffers, (size_t)in->n_buffers * sizeof(void*));
  data->struct_children = calloc((size_t)in->n_children + 8, sizeof(struct ArrowArray*));
  memcpy(data->struct_children, data->children, (size_t)data->n_children * sizeof(struct ArrowArray*));
  out->buffers = data->struct_buffers;
  out->children = data->struct_children;
  out->dictionary = data->dictionary;
  out->private_data = data;
  out->release = release_array;
  if (rc != ERR_NONE) { release_array(out); return rc; }
  if (root) atomic_fetch_add(&arrays_made, 1);
  return ERR_NONE;
}

/* ---- schema copy ----------------------------------------------------------------------------- */

static char* copy_string(const char* s) {
  if (s == NULL) return NULL;
  size_t n = strlen(s) + 1;
  char* out = malloc(n);
  memcpy(out, s, n);
  return out;
}

static char* copy_metadata(const char* m) {
  if (m == NULL) return NULL;
  int32_t count;
  memcpy(&count, m, 4);
  size_t at = 4;
  for (int32_t i = 0; i < count * 2; i++) {
    int32_t length;
    memcpy(&length, m + at, 4);
    at += 4 + (size_t)length;
  }
  char* out = malloc(at);
  memcpy(out, m, at);
  return out;
}

struct schema_data {
  char* format;
  char* name;
  char* metadata;
  struct ArrowSchema** children;
  struct ArrowSchema** struct_children;
  int64_t n_children;
  struct ArrowSchema* dictionary;
  int root;
};

static void release_schema(struct ArrowSchema* schema) {
  struct schema_data* data = (struct schema_data*)schema->private_data;
  for (int64_t i = 0; i < data->n_children; i++) {
    if (data->children[i]->release != NULL) data->children[i]->release(data->children[i]);
    free(data->children[i]);
  }
  free(data->children);
  free(data->struct_children);
  if (data->dictionary != NULL) {
    if (data->dictionary->release != NULL) data->dictionary->release(data->dictionary);
    free(data->dictionary);
  }
  free(data->format);
  free(data->name);
  free(data->metadata);
  int root = data->root;
  free(data);
  schema->release = NULL;
  if (root) atomic_fetch_add(&schemas_released, 1);
}

static void copy_schema(const struct ArrowSchema* in, struct ArrowSchema* out, int root) {
  struct schema_data* data = calloc(1, sizeof *data);
  data->root = root;
  data->format = copy_string(in->format);
  data->name = copy_string(in->name);
  data->metadata = copy_metadata(in->metadata);
  data->n_children = in->n_children;
  data->children = calloc((size_t)in->n_children + 8, sizeof(struct ArrowSchema*));
  for (int64_t i = 0; i < in->n_children; i++) {
    data->children[i] = calloc(1, sizeof(struct ArrowSchema));
    copy_schema(in->children[i], data->children[i], 0);
  }
  if (in->dictionary != NULL) {
    data->dictionary = calloc(1, sizeof(struct ArrowSchema));
    copy_schema(in->dictionary, data->dictionary, 0);
  }
  out->format = data->format;
  out->name = data->name;
  out->metadata = data->metadata;
  out->flags = in->flags;
  out->n_children = in->n_children;
  data->struct_children = calloc((size_t)in->n_children + 8, sizeof(struct ArrowSchema*));
  memcpy(data->struct_children, data->children, (size_t)in->n_children * sizeof(struct ArrowSchema*));
  out->children = data->struct_children;
  out->dictionary = data->dictionary;
  out->private_data = data;
  out->release = release_schema;
}

/*
 * Consumes (and releases) in_array and in_schema, produces out_array and out_schema.
 * Returns 0, or an ERR_* code; the inputs are released in every case.
 */
int dc_copy(struct ArrowArray* in_array, struct ArrowSchema* in_schema,
            struct ArrowArray* out_array, struct ArrowSchema* out_schema) {
  int rc = copy_array(in_array, in_schema, out_array, 1);
  if (rc == ERR_NONE) copy_schema(in_schema, out_schema, 1);
  if (in_array->release != NULL) in_array->release(in_array);
  if (in_schema->release != NULL) in_schema->release(in_schema);
  if (in_array->release != NULL || in_schema->release != NULL) return ERR_RELEASED;
  return rc;
}
