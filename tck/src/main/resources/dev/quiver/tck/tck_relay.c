/*
 * The C side of the TCK round trip, written from the Arrow C Device Data Interface specification.
 * tck_relay() checks the conventions a producer must follow, then moves the ArrowDeviceArray into a
 * consumer-owned struct whose release is wrapped, so that C counts how often the consumer releases it.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "arrow_c_abi.h"

static atomic_long relayed;
static atomic_long released;

struct relay {
  struct ArrowArray original;
};

static void counting_release(struct ArrowArray* array) {
  struct relay* relay = (struct relay*)array->private_data;
  relay->original.release(&relay->original);
  free(relay);
  array->release = NULL;
  atomic_fetch_add(&released, 1);
}

/* 0 on success; otherwise the number of the first broken rule, and the input is left untouched. */
int tck_relay(struct ArrowDeviceArray* in, struct ArrowDeviceArray* out, int32_t device_type, int64_t device_id) {
  if (in->array.release == NULL) return 1;
  if (in->device_type != device_type) return 2;
  if (in->device_id != device_id) return 3;
  for (int i = 0; i < 3; i++) {
    if (in->reserved[i] != 0) return 4;
  }
  if (in->array.length < 0 || in->array.offset < 0) return 5;
  struct relay* relay = (struct relay*)malloc(sizeof *relay);
  if (relay == NULL) return 6;
  memcpy(&relay->original, &in->array, sizeof in->array);
  memcpy(out, in, sizeof *in);
  in->array.release = NULL;
  out->array.private_data = relay;
  out->array.release = counting_release;
  atomic_fetch_add(&relayed, 1);
  return 0;
}

/* Moves a schema unchanged. 0 on success. */
int tck_move_schema(struct ArrowSchema* in, struct ArrowSchema* out) {
  if (in->release == NULL || in->format == NULL) return 1;
  memcpy(out, in, sizeof *in);
  in->release = NULL;
  return 0;
}

long tck_relayed(void) { return atomic_load(&relayed); }
long tck_released(void) { return atomic_load(&released); }
