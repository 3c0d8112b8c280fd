/*
 * A C consumer of struct ArrowDeviceArrayStream, written from the specification: pulls every batch,
 * checks its values, releases it (checking the release marked it released) and finally the stream.
 * Results go to an int64_t[8] the caller passes:
 *   [0] batches received  [1] batches whose values checked out  [2] arrays released (and marked released)
 *   [3] get_schema result (0 ok, else the code or 100 + the broken rule)  [4] last get_next code
 *   [5] 1 once the stream was released  [6] first broken batch rule (0 if none)
 */
#include <stdlib.h>
#include <string.h>
#include "int32_batches.h"

static void copy_error(struct ArrowDeviceArrayStream* stream, char* error, int capacity) {
  const char* message = stream->get_last_error(stream);
  if (capacity <= 0) return;
  if (message == NULL) message = "(NULL)";
  strncpy(error, message, (size_t)capacity - 1);
  error[capacity - 1] = '\0';
}

static int check_schema(struct ArrowDeviceArrayStream* stream, int64_t* stats, char* error, int capacity) {
  struct ArrowSchema schema;
  int rc = stream->get_schema(stream, &schema);
  if (rc != 0) {
    copy_error(stream, error, capacity);
    stats[3] = rc;
    return rc;
  }
  int rule = check_int32_schema(&schema);
  schema.release(&schema);
  stats[3] = rule == 0 ? 0 : 100 + rule;
  return stats[3];
}

static void check_and_release(struct ArrowDeviceArray* array, int64_t index, int32_t device_type, int64_t* stats) {
  int rule = check_int32_batch(array, index, device_type);
  if (rule == 0) {
    stats[1]++;
  } else if (stats[6] == 0) {
    stats[6] = rule;
  }
  if (release_batch(array) == 0) stats[2]++;
}

/*
 * Pulls until the end or an error. With keep != 0 every array is kept, the stream released first, and
 * the arrays checked and released afterwards (arrays outlive their stream). Returns the last code.
 */
int pull_consume_all(struct ArrowDeviceArrayStream* stream, int32_t device_type, int keep, int64_t* stats,
                     char* error, int capacity) {
  memset(stats, 0, 8 * sizeof(int64_t));
  if (stream->device_type != device_type) return -2;
  if (check_schema(stream, stats, error, capacity) != 0) {
    stream->release(stream);
    stats[5] = 1;
    return (int)stats[3];
  }
  int64_t capacity_kept = 16;
  struct ArrowDeviceArray* kept = keep ? (struct ArrowDeviceArray*)malloc(sizeof *kept * capacity_kept) : NULL;
  int rc = 0;
  for (;;) {
    struct ArrowDeviceArray array;
    rc = stream->get_next(stream, &array);
    stats[4] = rc;
    if (rc != 0) {
      copy_error(stream, error, capacity);
      break;
    }
    if (array.array.release == NULL) break;
    if (keep) {
      if (stats[0] == capacity_kept) {
        capacity_kept *= 2;
        kept = (struct ArrowDeviceArray*)realloc(kept, sizeof *kept * capacity_kept);
      }
      memcpy(&kept[stats[0]], &array, sizeof array);
    } else {
      check_and_release(&array, stats[0], device_type, stats);
    }
    stats[0]++;
  }
  stream->release(stream);
  stats[5] = stream->release == NULL ? 1 : -1;
  if (keep) {
    for (int64_t i = 0; i < stats[0]; i++) check_and_release(&kept[i], i, device_type, stats);
    free(kept);
  }
  return rc;
}

/* One get_next: returns its code; copies get_last_error on failure; leaves the array to the caller. */
int pull_next_once(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out, char* error, int capacity) {
  int rc = stream->get_next(stream, out);
  if (rc != 0) copy_error(stream, error, capacity);
  return rc;
}

/* Releases the stream through its callback. */
void pull_release_stream(struct ArrowDeviceArrayStream* stream) {
  stream->release(stream);
}

/* Checks batch `index` and releases it: 0 if both are fine, else the broken rule (100 if release did not mark it). */
int pull_check_release(struct ArrowDeviceArray* array, int64_t index, int32_t device_type) {
  int rule = check_int32_batch(array, index, device_type);
  if (release_batch(array) != 0) return 100;
  return rule;
}
