/*
 * A DLPack 1.x producer and consumer of DLManagedTensorVersioned, compiled against our own declarations of
 * the 1.x layouts (dlpack_v1.h).
 */
#include "dlpack_v1.h"
#define PEER_MANAGED DLManagedTensorVersioned
#include "dl_tensor_peer.h"

/* Produces a versioned tensor (see peer_fill); with_deleter 0 leaves the deleter NULL. Returns the slot. */
int32_t v1_produce(uint32_t major, uint32_t minor, uint64_t flags, int32_t device_type, int32_t device_id, uint8_t code,
                   uint8_t bits, uint16_t lanes, int32_t ndim, const int64_t* shape, const int64_t* strides,
                   uint64_t byte_offset, const void* bytes, int64_t n_bytes, int32_t with_deleter,
                   DLManagedTensorVersioned** out) {
  struct peer_slot* slot;
  int32_t n = peer_fill(&slot, device_type, device_id, code, bits, lanes, ndim, shape, strides, byte_offset, bytes, n_bytes);
  if (n < 0) {
    return n;
  }
  slot->managed.version.major = major;
  slot->managed.version.minor = minor;
  slot->managed.flags = flags;
  slot->managed.deleter = with_deleter ? peer_deleter : NULL;
  *out = &slot->managed;
  return n;
}

/* Produces a tensor of a foreign major version whose every other field is poison: a consumer that reads
 * anything but the version and the deleter crashes or sees garbage. */
int32_t v1_produce_foreign_major(uint32_t major, int32_t with_deleter, DLManagedTensorVersioned** out) {
  int64_t none = 0;
  struct peer_slot* slot;
  int32_t n = peer_fill(&slot, 99, -7, 250, 3, 9, 0, &none, NULL, UINT64_MAX, NULL, -1);
  if (n < 0) {
    return n;
  }
  slot->managed.version.major = major;
  slot->managed.version.minor = UINT32_MAX;
  slot->managed.flags = UINT64_MAX;
  slot->managed.dl_tensor.data = (void*) (uintptr_t) 0x10;
  slot->managed.dl_tensor.ndim = -3;
  slot->managed.dl_tensor.shape = (int64_t*) (uintptr_t) 0x20;
  slot->managed.dl_tensor.strides = (int64_t*) (uintptr_t) 0x30;
  slot->managed.deleter = with_deleter ? peer_deleter : NULL;
  *out = &slot->managed;
  return n;
}

int32_t v1_deleter_calls(int32_t slot) {
  return peer_deleter_calls(slot);
}

/* Consumes a tensor a producer exported: checks the producer rules, describes it into `text`, copies its
 * elements into `values` if asked (host memory only), reports its data pointer, then calls the deleter
 * exactly once (on a new thread if asked). Returns 0, or the broken rule negated. */
int32_t v1_consume(DLManagedTensorVersioned* m, int32_t copy_values, char* text, int64_t text_cap, void* values,
                   int64_t values_cap, uint64_t* data_address, int32_t delete_on_new_thread) {
  if (m == NULL) {
    return -PEER_NULL_TENSOR;
  }
  if (m->deleter == NULL) {
    return -PEER_NULL_DELETER;
  }
  if (m->version.major != DLPACK_MAJOR_VERSION || m->version.minor != DLPACK_MINOR_VERSION) {
    m->deleter(m);
    return -PEER_WRONG_VERSION;
  }
  int rule = peer_check_tensor(&m->dl_tensor);
  if (rule == PEER_OK && copy_values) {
    DLDeviceType device = m->dl_tensor.device.device_type;
    rule = device == kDLCPU || device == kDLCUDAHost || device == kDLCUDAManaged || device == kDLROCMHost
        ? peer_copy_values(&m->dl_tensor, values, values_cap) : PEER_NOT_HOST;
  }
  char prefix[96];
  snprintf(prefix, sizeof prefix, "v%u.%u flags=%llu ", m->version.major, m->version.minor, (unsigned long long) m->flags);
  peer_describe(&m->dl_tensor, text, text_cap, prefix);
  *data_address = (uint64_t) (uintptr_t) m->dl_tensor.data;
  peer_delete(m, delete_on_new_thread);
  return -rule;
}
