/*
 * Record batches of struct<i: int32 (nullable), s: utf8> written from the C Data Interface specification,
 * for the bridge tests: batch b, row r holds i = 1000 * b + r (null when r % 5 == 3) and s = "b<b>r<r>".
 * Every struct node has its own release callback; the nodes of one batch share one allocation, freed when
 * the last node is released, so a consumer may move children out and release them in any order.
 */
#ifndef RECORD_BATCHES_H
#define RECORD_BATCHES_H

#include <stdatomic.h>
#include <stdint.h>
#include "arrow_c_abi.h"

struct batch_counters {
  atomic_long batches_made;
  atomic_long nodes_released;   /* every struct node of every batch: 3 per batch */
  atomic_long batches_freed;    /* allocations freed: 1 per batch, after its last node */
  atomic_long schemas_released;
};

/* Fills out (released or zeroed) with batch `batch` of `rows` rows. Returns 0, or ENOMEM. */
int make_record_batch(struct ArrowArray* out, int64_t batch, int64_t rows, struct batch_counters* counters);

/* Fills out with the schema of the batches. */
void make_record_batch_schema(struct ArrowSchema* out, struct batch_counters* counters);

#endif
