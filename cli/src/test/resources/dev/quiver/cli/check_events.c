/*
 * Producers of ROCm-typed arrays with a sync event, for the test of the checker's backend heuristic: the
 * test gives them an event handle that its test double backend made (check_set_event), and they store it
 * the right way (a pointer to the handle) or the classic wrong way (the handle itself).
 */
#include <stdlib.h>
#include "check_batch.h"

static void* test_event;

void check_set_event(void* event) { test_event = event; }

static void rocm_batch(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->device_type = ARROW_DEVICE_ROCM;
  out->device_id = 0;
}

/* sync_event is a hipEvent_t*: a pointer to producer-owned memory holding the handle. */
int rocm_event_pointer(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  rocm_batch(out, out_schema);
  void** event = (void**)malloc(sizeof(void*));
  *event = test_event;
  ((struct array_node*)out->array.private_data)->owned[0] = event;
  out->sync_event = event;
  return 0;
}

/* sync_event is the hipEvent_t itself. */
int rocm_event_stored(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  rocm_batch(out, out_schema);
  out->sync_event = test_event;
  return 0;
}
