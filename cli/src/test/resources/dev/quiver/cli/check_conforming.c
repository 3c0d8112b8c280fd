/* Producers that break no rule: `quiver check` must report none. */
#include <stdlib.h>
#include "check_batch.h"

/* int f(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema): the CPU batch and its schema. */
int produce_batch(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  return 0;
}

/* int f(struct ArrowDeviceArray* out): the CPU batch alone; its type is known by convention. */
int produce_batch_without_schema(struct ArrowDeviceArray* out) {
  batch_device_array(out);
  return 0;
}

/*
 * The batch as CUDA device 0 memory with a sync event, as the spec's CUDA example does: sync_event points
 * to producer-owned host memory holding the event handle, freed by the array's release. No CUDA runs
 * here: the handle is a stand-in value and the buffers are host memory, which only a real consumer would
 * notice; the checker reads neither.
 */
int produce_cuda_batch_with_event(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  void** event = (void**)malloc(sizeof(void*));
  *event = (void*)0x5eed0000;
  ((struct array_node*)out->array.private_data)->owned[0] = event;
  out->device_type = ARROW_DEVICE_CUDA;
  out->device_id = 0;
  out->sync_event = event;
  return 0;
}
