/*
 * What the DLPack test peers share, for any dlpack.h whose DLTensor has the usual field names (Debian's
 * v0.6 header or our 1.x declarations): describing a tensor as text, checking the producer rules, copying
 * its elements out in C order, and a pool of producer slots whose deleter calls are counted.
 * Include it after the dlpack header, with PEER_MANAGED defined as the managed tensor type.
 */
#ifndef QUIVER_DL_TENSOR_PEER_H
#define QUIVER_DL_TENSOR_PEER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PEER_SLOTS 4096
#define PEER_MAX_DIMS 8

/* Producer rules a consumer checks; the codes are what the consume functions return, negated. */
enum peer_rule {
  PEER_OK = 0,
  PEER_NULL_TENSOR = 1,
  PEER_NULL_DELETER = 2,
  PEER_WRONG_VERSION = 3,
  PEER_NULL_SHAPE = 4,
  PEER_NULL_STRIDES = 5,
  PEER_EMPTY_WITH_DATA = 6,
  PEER_LANES = 7,
  PEER_NOT_HOST = 8,
  PEER_VALUES_DO_NOT_FIT = 9
};

/* One produced tensor: the managed struct, its shape and strides, and how often its deleter ran. */
struct peer_slot {
  PEER_MANAGED managed;
  int64_t shape[PEER_MAX_DIMS];
  int64_t strides[PEER_MAX_DIMS];
  void* allocation;
  atomic_int deleter_calls;
};

static struct peer_slot peer_slots[PEER_SLOTS];
static atomic_int peer_next_slot;

/* The deleter of produced tensors: counts every call, frees on the first. Slots are never reused, so a
 * second call is counted instead of touching freed memory. */
static void peer_deleter(PEER_MANAGED* self) {
  struct peer_slot* slot = (struct peer_slot*) self->manager_ctx;
  if (atomic_fetch_add(&slot->deleter_calls, 1) == 0) {
    free(slot->allocation);
    slot->allocation = NULL;
  }
}

/* Fills a fresh slot's DLTensor; returns the slot number or -1 when the pool or the rank is exhausted.
 * The data is a malloc'd copy of n_bytes of `bytes`; n_bytes < 0 gives NULL data. */
static int32_t peer_fill(struct peer_slot** out, int32_t device_type, int32_t device_id, uint8_t code,
                         uint8_t bits, uint16_t lanes, int32_t ndim, const int64_t* shape, const int64_t* strides,
                         uint64_t byte_offset, const void* bytes, int64_t n_bytes) {
  int32_t n = atomic_fetch_add(&peer_next_slot, 1);
  if (n >= PEER_SLOTS || ndim < 0 || ndim > PEER_MAX_DIMS) {
    return -1;
  }
  struct peer_slot* slot = &peer_slots[n];
  memset(&slot->managed, 0, sizeof slot->managed);
  slot->allocation = NULL;
  if (n_bytes >= 0) {
    slot->allocation = malloc(n_bytes > 0 ? (size_t) n_bytes : 1);
    if (n_bytes > 0) {
      memcpy(slot->allocation, bytes, (size_t) n_bytes);
    }
  }
  DLTensor* tensor = &slot->managed.dl_tensor;
  tensor->data = slot->allocation;
  tensor->device.device_type = device_type;
  tensor->device.device_id = device_id;
  tensor->ndim = ndim;
  tensor->dtype.code = code;
  tensor->dtype.bits = bits;
  tensor->dtype.lanes = lanes;
  for (int32_t i = 0; i < ndim; i++) {
    slot->shape[i] = shape[i];
    if (strides != NULL) {
      slot->strides[i] = strides[i];
    }
  }
  tensor->shape = ndim > 0 ? slot->shape : NULL;
  tensor->strides = strides != NULL && ndim > 0 ? slot->strides : NULL;
  tensor->byte_offset = byte_offset;
  slot->managed.manager_ctx = slot;
  *out = slot;
  return n;
}

static int32_t peer_deleter_calls(int32_t n) {
  return n >= 0 && n < PEER_SLOTS ? atomic_load(&peer_slots[n].deleter_calls) : -1;
}

static int64_t peer_element_count(const DLTensor* t) {
  int64_t count = 1;
  for (int32_t i = 0; i < t->ndim; i++) {
    count *= t->shape[i];
  }
  return count;
}

/* Checks the producer rules shared by both structs; returns a peer_rule. */
static int peer_check_tensor(const DLTensor* t) {
  if (t->ndim > 0 && t->shape == NULL) {
    return PEER_NULL_SHAPE;
  }
  if (t->ndim > 0 && t->strides == NULL) {
    return PEER_NULL_STRIDES;
  }
  if (peer_element_count(t) == 0 && t->data != NULL) {
    return PEER_EMPTY_WITH_DATA;
  }
  if (t->dtype.lanes != 1) {
    return PEER_LANES;
  }
  return PEER_OK;
}

static void peer_describe(const DLTensor* t, char* text, int64_t cap, const char* prefix) {
  int at = snprintf(text, (size_t) cap, "%sdevice=%d:%d dtype=%u:%u:%u ndim=%d shape=[", prefix, (int) t->device.device_type,
                    (int) t->device.device_id, (unsigned) t->dtype.code, (unsigned) t->dtype.bits, (unsigned) t->dtype.lanes,
                    (int) t->ndim);
  for (int32_t i = 0; i < t->ndim && at < cap; i++) {
    at += snprintf(text + at, (size_t) (cap - at), i ? ",%lld" : "%lld", (long long) t->shape[i]);
  }
  if (at < cap) {
    at += snprintf(text + at, (size_t) (cap - at), "] strides=");
  }
  if (t->strides == NULL && at < cap) {
    at += snprintf(text + at, (size_t) (cap - at), "NULL");
  } else {
    for (int32_t i = 0; i < t->ndim && at < cap; i++) {
      at += snprintf(text + at, (size_t) (cap - at), i ? ",%lld" : "[%lld", (long long) t->strides[i]);
    }
    if (at < cap) {
      at += snprintf(text + at, (size_t) (cap - at), t->ndim > 0 ? "]" : "[]");
    }
  }
  if (at < cap) {
    snprintf(text + at, (size_t) (cap - at), " byte_offset=%llu data=%s", (unsigned long long) t->byte_offset,
             t->data == NULL ? "NULL" : "set");
  }
}

/* Copies the elements of a host tensor out in C order, honouring strides (NULL: C-contiguous). */
static int peer_copy_values(const DLTensor* t, void* values, int64_t cap) {
  int64_t count = peer_element_count(t);
  int64_t size = (t->dtype.bits * t->dtype.lanes + 7) / 8;
  if (count * size > cap) {
    return PEER_VALUES_DO_NOT_FIT;
  }
  int64_t index[PEER_MAX_DIMS] = {0};
  for (int64_t n = 0; n < count; n++) {
    int64_t offset = 0;
    int64_t contiguous = 1;
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
      offset += index[d] * (t->strides != NULL ? t->strides[d] : contiguous);
      contiguous *= t->shape[d];
    }
    memcpy((char*) values + n * size, (const char*) t->data + t->byte_offset + offset * size, (size_t) size);
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
      if (++index[d] < t->shape[d]) {
        break;
      }
      index[d] = 0;
    }
  }
  return PEER_OK;
}

/* Calls a deleter on a new thread, as a consumer on another thread would. */
struct peer_call {
  PEER_MANAGED* managed;
};

static void* peer_call_deleter(void* arg) {
  struct peer_call* call = (struct peer_call*) arg;
  call->managed->deleter(call->managed);
  return NULL;
}

static void peer_delete(PEER_MANAGED* managed, int32_t on_new_thread) {
  if (!on_new_thread) {
    managed->deleter(managed);
    return;
  }
  struct peer_call call = {managed};
  pthread_t thread;
  if (pthread_create(&thread, NULL, peer_call_deleter, &call) != 0) {
    managed->deleter(managed);
    return;
  }
  pthread_join(thread, NULL);
}

#endif
