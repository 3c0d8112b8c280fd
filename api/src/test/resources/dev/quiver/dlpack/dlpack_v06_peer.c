/*
 * A producer and consumer of the legacy DLManagedTensor, compiled against Debian's libdlpack-dev header
 * (DLPack 0.6, which has no versioned struct).
 */
#include <dlpack/dlpack.h>
#define PEER_MANAGED DLManagedTensor
#include "dl_tensor_peer.h"

#if DLPACK_VERSION != 60
#error "expected the DLPack 0.6 header of Debian's libdlpack-dev"
#endif

/* Produces a legacy tensor (see peer_fill); with_deleter 0 leaves the deleter NULL. Returns the slot. */
int32_t v06_produce(int32_t device_type, int32_t device_id, uint8_t code, uint8_t bits, uint16_t lanes, int32_t ndim,
                    const int64_t* shape, const int64_t* strides, uint64_t byte_offset, const void* bytes, int64_t n_bytes,
                    int32_t with_deleter, DLManagedTensor** out) {
  struct peer_slot* slot;
  int32_t n = peer_fill(&slot, device_type, device_id, code, bits, lanes, ndim, shape, strides, byte_offset, bytes, n_bytes);
  if (n < 0) {
    return n;
  }
  slot->managed.deleter = with_deleter ? peer_deleter : NULL;
  *out = &slot->managed;
  return n;
}

int32_t v06_deleter_calls(int32_t slot) {
  return peer_deleter_calls(slot);
}

/* As v1_consume, for the legacy struct. */
int32_t v06_consume(DLManagedTensor* m, int32_t copy_values, char* text, int64_t text_cap, void* values, int64_t values_cap,
                    uint64_t* data_address, int32_t delete_on_new_thread) {
  if (m == NULL) {
    return -PEER_NULL_TENSOR;
  }
  if (m->deleter == NULL) {
    return -PEER_NULL_DELETER;
  }
  int rule = peer_check_tensor(&m->dl_tensor);
  if (rule == PEER_OK && copy_values) {
    DLDeviceType device = m->dl_tensor.device.device_type;
    rule = device == kDLCPU || device == kDLCUDAHost || device == kDLCUDAManaged || device == kDLROCMHost
        ? peer_copy_values(&m->dl_tensor, values, values_cap) : PEER_NOT_HOST;
  }
  peer_describe(&m->dl_tensor, text, text_cap, "");
  *data_address = (uint64_t) (uintptr_t) m->dl_tensor.data;
  peer_delete(m, delete_on_new_thread);
  return -rule;
}
