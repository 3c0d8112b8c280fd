/*
 * A C consumer of Arrow C Device arrays, written from the specification: it checks the structs Java
 * exported (device fields, formats, buffer and child counts, required buffers, offsets), reads every
 * value into checksums, and releases what it was given. CConsumerExportTest compares the checksums
 * with ones computed from the Java values.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include "arrow_c_abi.h"

/* counts[]: values, nulls, integer sum (mod 2^64), true booleans, string/binary bytes, their byte sum */
enum { VALUES, NULLS, INT_SUM, TRUES, BYTES, BYTE_SUM, N_COUNTS };

struct Kind {
  const char* format;
  int n_buffers;
  int n_children; /* -1: any (struct) */
  int bits;       /* fixed width in bits, 0 for none */
  char what;      /* n(ull) b(ool) i(nt) u(nsigned) f(loat) v(ariable) l(ist) s(truct) */
};

static const struct Kind KINDS[] = {
  {"n", 0, 0, 0, 'n'}, {"b", 2, 0, 1, 'b'},
  {"c", 2, 0, 8, 'i'}, {"C", 2, 0, 8, 'u'}, {"s", 2, 0, 16, 'i'}, {"S", 2, 0, 16, 'u'},
  {"i", 2, 0, 32, 'i'}, {"I", 2, 0, 32, 'u'}, {"l", 2, 0, 64, 'i'}, {"L", 2, 0, 64, 'u'},
  {"e", 2, 0, 16, 'f'}, {"f", 2, 0, 32, 'f'}, {"g", 2, 0, 64, 'f'},
  {"u", 3, 0, 0, 'v'}, {"z", 3, 0, 0, 'v'}, {"+l", 2, 1, 0, 'l'}, {"+s", 1, -1, 0, 's'},
};

struct Ctx {
  char* desc;
  size_t desc_len, desc_at;
  char* err;
  size_t err_len;
  int64_t counts[N_COUNTS];
  double float_sum;
};

static int fail(struct Ctx* x, const char* path, const char* fmt, ...) {
  va_list args;
  int n = snprintf(x->err, x->err_len, "%s: ", path[0] ? path : "(top)");
  va_start(args, fmt);
  if (n >= 0 && (size_t) n < x->err_len) vsnprintf(x->err + n, x->err_len - (size_t) n, fmt, args);
  va_end(args);
  return 1;
}

static void describe(struct Ctx* x, const char* s) {
  size_t n = strlen(s);
  if (x->desc_at + n + 1 > x->desc_len) return;
  memcpy(x->desc + x->desc_at, s, n + 1);
  x->desc_at += n;
}

static const struct Kind* kind_of(const char* format) {
  for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++) {
    if (strcmp(KINDS[i].format, format) == 0) return &KINDS[i];
  }
  return NULL;
}

static int bit(const void* bits, int64_t i) {
  return (((const uint8_t*) bits)[i / 8] >> (i % 8)) & 1;
}

static int32_t offset_at(const struct ArrowArray* a, int64_t i) {
  int32_t v;
  memcpy(&v, (const uint8_t*) a->buffers[1] + 4 * i, 4);
  return v;
}

static int check(struct Ctx* x, const struct ArrowArray* a, const struct ArrowSchema* s, const char* path) {
  if (s->release == NULL) return fail(x, path, "schema is released");
  if (a->release == NULL) return fail(x, path, "array is released");
  if (s->format == NULL) return fail(x, path, "format is NULL");
  const struct Kind* k = kind_of(s->format);
  if (k == NULL) return fail(x, path, "unknown format \"%s\"", s->format);
  describe(x, s->name ? s->name : "(null)");
  describe(x, ":");
  describe(x, s->format);
  if (s->flags & ~(int64_t) 7) return fail(x, path, "unknown flags %lld", (long long) s->flags);
  if (s->dictionary != NULL || a->dictionary != NULL) return fail(x, path, "dictionary set");
  if (k->n_children >= 0 && s->n_children != k->n_children) return fail(x, path, "schema n_children %lld", (long long) s->n_children);
  if (a->n_children != s->n_children) return fail(x, path, "array n_children %lld, schema %lld", (long long) a->n_children, (long long) s->n_children);
  if (a->n_buffers != k->n_buffers) return fail(x, path, "n_buffers %lld, format needs %d", (long long) a->n_buffers, k->n_buffers);
  if (a->length < 0 || a->offset < 0) return fail(x, path, "length %lld offset %lld", (long long) a->length, (long long) a->offset);
  if (a->null_count < -1 || a->null_count > a->length) return fail(x, path, "null_count %lld", (long long) a->null_count);
  if (k->what == 'n' && a->null_count != a->length) return fail(x, path, "null array with null_count %lld", (long long) a->null_count);
  if (a->n_buffers > 0 && a->buffers == NULL) return fail(x, path, "buffers is NULL");
  if (a->n_children > 0 && (a->children == NULL || s->children == NULL)) return fail(x, path, "children is NULL");
  if (a->n_buffers > 0 && a->buffers[0] == NULL && a->null_count != 0) return fail(x, path, "validity NULL, null_count %lld", (long long) a->null_count);
  if (a->length > 0 && k->n_buffers >= 2 && a->buffers[1] == NULL) return fail(x, path, "buffers[1] is NULL");
  if (a->buffers != NULL && k->n_buffers >= 2 && a->buffers[1] != NULL && (k->what == 'v' || k->what == 'l')) {
    for (int64_t i = a->offset; i < a->offset + a->length; i++) {
      if (offset_at(a, i) < 0 || offset_at(a, i + 1) < offset_at(a, i)) return fail(x, path, "offsets not ascending at %lld", (long long) i);
    }
    int32_t end = offset_at(a, a->offset + a->length);
    if (k->what == 'v' && end > offset_at(a, a->offset) && a->buffers[2] == NULL) return fail(x, path, "buffers[2] is NULL");
    if (k->what == 'l' && a->children[0] != NULL && end > a->children[0]->length) {
      return fail(x, path, "offsets end at %d, past the child's length %lld", end, (long long) a->children[0]->length);
    }
  }
  if (a->n_children > 0) describe(x, "{");
  for (int64_t i = 0; i < a->n_children; i++) {
    char child[512];
    snprintf(child, sizeof child, "%s%schildren[%lld]", path, path[0] ? "." : "", (long long) i);
    if (a->children[i] == NULL || s->children[i] == NULL) return fail(x, child, "is NULL");
    if (k->what == 's' && a->children[i]->length < a->offset + a->length) return fail(x, child, "shorter than its struct");
    if (i > 0) describe(x, ",");
    if (check(x, a->children[i], s->children[i], child)) return 1;
  }
  if (a->n_children > 0) describe(x, "}");
  return 0;
}

static double half_to_double(uint16_t h) {
  uint32_t sign = (uint32_t) (h >> 15) << 31, exp = (h >> 10) & 0x1f, mant = h & 0x3ff, bits;
  if (exp == 0) {
    double v = mant / 16777216.0; /* mant * 2^-24 */
    return sign ? -v : v;
  }
  bits = sign | (exp == 31 ? 0xffu << 23 : (exp - 15 + 127) << 23) | mant << 13;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/* Element i (logical) of a: physical index a->offset + i. */
static void visit(struct Ctx* x, const struct ArrowArray* a, const struct ArrowSchema* s, int64_t i) {
  const struct Kind* k = kind_of(s->format);
  int64_t j = a->offset + i;
  if (k->what == 'n' || (a->buffers[0] != NULL && !bit(a->buffers[0], j))) {
    x->counts[NULLS]++;
    return;
  }
  x->counts[VALUES]++;
  const uint8_t* data = a->n_buffers > 1 ? a->buffers[1] : NULL;
  switch (k->what) {
    case 'b':
      x->counts[TRUES] += bit(data, j);
      break;
    case 'i':
    case 'u': {
      uint64_t v = 0;
      if (k->bits == 8) v = k->what == 'i' ? (uint64_t) (int64_t) (int8_t) data[j] : data[j];
      if (k->bits == 16) { uint16_t t; memcpy(&t, data + 2 * j, 2); v = k->what == 'i' ? (uint64_t) (int64_t) (int16_t) t : t; }
      if (k->bits == 32) { uint32_t t; memcpy(&t, data + 4 * j, 4); v = k->what == 'i' ? (uint64_t) (int64_t) (int32_t) t : t; }
      if (k->bits == 64) memcpy(&v, data + 8 * j, 8);
      x->counts[INT_SUM] = (int64_t) ((uint64_t) x->counts[INT_SUM] + v);
      break;
    }
    case 'f':
      if (k->bits == 16) { uint16_t t; memcpy(&t, data + 2 * j, 2); x->float_sum += half_to_double(t); }
      if (k->bits == 32) { float t; memcpy(&t, data + 4 * j, 4); x->float_sum += t; }
      if (k->bits == 64) { double t; memcpy(&t, data + 8 * j, 8); x->float_sum += t; }
      break;
    case 'v':
      for (int32_t b = offset_at(a, j); b < offset_at(a, j + 1); b++) {
        x->counts[BYTES]++;
        x->counts[BYTE_SUM] += ((const uint8_t*) a->buffers[2])[b];
      }
      break;
    case 'l':
      for (int32_t e = offset_at(a, j); e < offset_at(a, j + 1); e++) visit(x, a->children[0], s->children[0], e);
      break;
    case 's':
      for (int64_t c = 0; c < a->n_children; c++) visit(x, a->children[c], s->children[c], j);
      break;
  }
}

/* Checks an ArrowArray and its schema and reads every value. 0 if valid; else err says why. */
int consumer_check_array(const struct ArrowArray* a, const struct ArrowSchema* s, int64_t* counts,
                         double* float_sum, char* desc, size_t desc_len, char* err, size_t err_len) {
  struct Ctx x = {.desc = desc, .desc_len = desc_len, .err = err, .err_len = err_len};
  desc[0] = 0;
  err[0] = 0;
  if (check(&x, a, s, "")) return 1;
  for (int64_t i = 0; i < a->length; i++) visit(&x, a, s, i);
  memcpy(counts, x.counts, sizeof x.counts);
  *float_sum = x.float_sum;
  return 0;
}

/* The same for an ArrowDeviceArray: device_type as expected, device_id -1, no event, reserved zero. */
int consumer_check(const struct ArrowDeviceArray* d, const struct ArrowSchema* s, int32_t device_type,
                   int64_t* counts, double* float_sum, char* desc, size_t desc_len, char* err, size_t err_len) {
  desc[0] = 0;
  if (d->device_type != device_type) return snprintf(err, err_len, "device_type %d, expected %d", d->device_type, device_type), 1;
  if (d->device_id != -1) return snprintf(err, err_len, "device_id %lld, expected -1", (long long) d->device_id), 1;
  if (d->sync_event != NULL) return snprintf(err, err_len, "sync_event is set"), 1;
  for (int i = 0; i < 3; i++) {
    if (d->reserved[i] != 0) return snprintf(err, err_len, "reserved[%d] is %lld", i, (long long) d->reserved[i]), 1;
  }
  return consumer_check_array(&d->array, s, counts, float_sum, desc, desc_len, err, err_len);
}

/* Releases an array and its schema (either may be NULL); 0 if both were live and are released now. */
int consumer_release_array(struct ArrowArray* a, struct ArrowSchema* s) {
  if ((a != NULL && a->release == NULL) || (s != NULL && s->release == NULL)) return 1;
  if (a != NULL) a->release(a);
  if (s != NULL) s->release(s);
  return (a == NULL || a->release == NULL) && (s == NULL || s->release == NULL) ? 0 : 2;
}

int consumer_release(struct ArrowDeviceArray* d, struct ArrowSchema* s) {
  return consumer_release_array(&d->array, s);
}

struct ReleaseJob {
  struct ArrowDeviceArray* d;
  struct ArrowSchema* s;
};

static int release_job(void* arg) {
  struct ReleaseJob* job = arg;
  return consumer_release(job->d, job->s);
}

/* consumer_release on a new native thread. */
int consumer_release_on_thread(struct ArrowDeviceArray* d, struct ArrowSchema* s) {
  struct ReleaseJob job = {d, s};
  thrd_t thread;
  int rc;
  if (thrd_create(&thread, release_job, &job) != thrd_success) return 10;
  if (thrd_join(thread, &rc) != thrd_success) return 11;
  return rc;
}

/* Moves child i of the top-level array and schema out into the given structs (the spec allows it). */
int consumer_take_child(struct ArrowDeviceArray* d, struct ArrowSchema* s, int64_t i,
                        struct ArrowArray* child, struct ArrowSchema* child_schema) {
  if (i >= d->array.n_children || i >= s->n_children) return 1;
  *child = *d->array.children[i];
  d->array.children[i]->release = NULL;
  *child_schema = *s->children[i];
  s->children[i]->release = NULL;
  return 0;
}

/* Struct memory a consumer allocated: filled with a pattern, so that every byte must be written. */
void* consumer_alloc(size_t size) {
  void* p = malloc(size);
  if (p != NULL) memset(p, 0xA5, size);
  return p;
}

void consumer_free(void* p) {
  free(p);
}
