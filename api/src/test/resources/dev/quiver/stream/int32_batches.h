/*
 * Test batches shared by the C producers and consumers: batch i is a non-null int32 array of length 3
 * holding 3i, 3i+1, 3i+2, in host memory (whatever device type code the stream claims).
 */
#ifndef QUIVER_INT32_BATCHES_H
#define QUIVER_INT32_BATCHES_H

#include <stdatomic.h>
#include "arrow_c_abi.h"

struct batch_counters {
  atomic_long made;
  atomic_long released;
};

/* Fills out with batch `index` (length -1 if `invalid`). Its release adds to counters->released. */
int make_int32_batch(struct ArrowDeviceArray* out, int64_t index, int32_t device_type, int invalid,
                     struct batch_counters* counters);

/* Fills out with the schema int32 "v" (or an unparsable format if `bad`). Its release adds to *released. */
void make_int32_schema(struct ArrowSchema* out, int bad, atomic_long* released);

/* 0 if `in` is a live batch `index` on device_type; otherwise the number of the broken rule. */
int check_int32_batch(const struct ArrowDeviceArray* in, int64_t index, int32_t device_type);

/* 0 if `schema` is a live int32 schema; otherwise the number of the broken rule. */
int check_int32_schema(const struct ArrowSchema* schema);

/* Calls the array's release and checks it marked the struct released: 0 if so, 1 if not. */
int release_batch(struct ArrowDeviceArray* array);

#endif
