/*
 * A record batch producer written from the Arrow C Data and C Device Data Interface specifications, for
 * the tests of `quiver check`: struct<id: int32, name: utf8, tag: dictionary<int8, utf8>> of 3 rows,
 * (1, "a", "x"), (null, "bc", "yz"), (3, "", "x").
 * The producers in check_*.c start from it and break one rule each. Every release callback counts its
 * calls, so the tests can assert in C that the checker released each struct exactly once.
 */
#ifndef QUIVER_CHECK_BATCH_H
#define QUIVER_CHECK_BATCH_H

#include <stdint.h>
#include "arrow_c_abi.h"

/* The producer's bookkeeping for one ArrowArray node; private_data points to it. */
struct array_node {
  const void* buffers[3];
  int64_t n_children;
  struct ArrowArray* children[3];
  struct ArrowArray* dictionary;
  void* owned[3];
  int top;
};

/* The producer's bookkeeping for one ArrowSchema node. */
struct schema_node {
  int64_t n_children;
  struct ArrowSchema* children[3];
  struct ArrowSchema* dictionary;
  int top;
};

/* Fills `out` with the batch (length 3, three children, the last with a dictionary); released by its own callback. */
void batch_array(struct ArrowArray* out);
/* Fills `out` with the batch's schema: "+s" with nullable children "i", "u" and "c" (dictionary "u"). */
void batch_schema(struct ArrowSchema* out);
/* Fills `out` with the batch as a conforming CPU device array: device_id -1, no event, reserved zero. */
void batch_device_array(struct ArrowDeviceArray* out);

/* The release callbacks batch_array and batch_schema install. */
void batch_release_array(struct ArrowArray* array);
void batch_release_schema(struct ArrowSchema* schema);

/* Release calls counted so far: every node, and top-level nodes only. */
long batch_array_releases(void);
long batch_schema_releases(void);
long batch_top_array_releases(void);
long batch_top_schema_releases(void);

#endif
