/*
 * The async device stream structs of the Arrow C Device Data Interface, as the upstream header (abi.h)
 * defines them (the specification's prose shows an extra `release` member in ArrowAsyncProducer and calls
 * the task ArrowArrayTask in places; the header has neither, and this file follows the header).
 */
#ifndef QUIVER_ASYNC_ABI_H
#define QUIVER_ASYNC_ABI_H

#include "arrow_c_abi.h"

#ifndef ARROW_C_ASYNC_STREAM_INTERFACE
#define ARROW_C_ASYNC_STREAM_INTERFACE

struct ArrowAsyncTask {
  int (*extract_data)(struct ArrowAsyncTask* self, struct ArrowDeviceArray* out);
  void* private_data;
};

struct ArrowAsyncProducer {
  ArrowDeviceType device_type;
  void (*request)(struct ArrowAsyncProducer* self, int64_t n);
  void (*cancel)(struct ArrowAsyncProducer* self);
  const char* additional_metadata;
  void* private_data;
};

struct ArrowAsyncDeviceStreamHandler {
  int (*on_schema)(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowSchema* stream_schema);
  int (*on_next_task)(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowAsyncTask* task, const char* metadata);
  void (*on_error)(struct ArrowAsyncDeviceStreamHandler* self, int code, const char* message, const char* metadata);
  void (*release)(struct ArrowAsyncDeviceStreamHandler* self);
  struct ArrowAsyncProducer* producer;
  void* private_data;
};

#endif
#endif
