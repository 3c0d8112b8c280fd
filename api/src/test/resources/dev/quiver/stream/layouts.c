/* Prints what the C compiler says about the stream structs and errno values, one "name value" per line. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include "async_abi.h"

#define SIZE(s) printf(#s " %zu\n", sizeof(struct s))
#define OFFSET(s, f) printf(#s "." #f " %zu\n", offsetof(struct s, f))
#define ERRNO(e) printf("errno." #e " %d\n", e)

int main(void) {
  SIZE(ArrowDeviceArrayStream);
  OFFSET(ArrowDeviceArrayStream, device_type);
  OFFSET(ArrowDeviceArrayStream, get_schema);
  OFFSET(ArrowDeviceArrayStream, get_next);
  OFFSET(ArrowDeviceArrayStream, get_last_error);
  OFFSET(ArrowDeviceArrayStream, release);
  OFFSET(ArrowDeviceArrayStream, private_data);
  SIZE(ArrowAsyncTask);
  OFFSET(ArrowAsyncTask, extract_data);
  OFFSET(ArrowAsyncTask, private_data);
  SIZE(ArrowAsyncProducer);
  OFFSET(ArrowAsyncProducer, device_type);
  OFFSET(ArrowAsyncProducer, request);
  OFFSET(ArrowAsyncProducer, cancel);
  OFFSET(ArrowAsyncProducer, additional_metadata);
  OFFSET(ArrowAsyncProducer, private_data);
  SIZE(ArrowAsyncDeviceStreamHandler);
  OFFSET(ArrowAsyncDeviceStreamHandler, on_schema);
  OFFSET(ArrowAsyncDeviceStreamHandler, on_next_task);
  OFFSET(ArrowAsyncDeviceStreamHandler, on_error);
  OFFSET(ArrowAsyncDeviceStreamHandler, release);
  OFFSET(ArrowAsyncDeviceStreamHandler, producer);
  OFFSET(ArrowAsyncDeviceStreamHandler, private_data);
  ERRNO(EPERM);
  ERRNO(ENOENT);
  ERRNO(EIO);
  ERRNO(EAGAIN);
  ERRNO(ENOMEM);
  ERRNO(EBUSY);
  ERRNO(ENODEV);
  ERRNO(EINVAL);
  ERRNO(ENOSPC);
  ERRNO(ENOSYS);
  ERRNO(EOVERFLOW);
  ERRNO(ETIMEDOUT);
  ERRNO(ECANCELED);
  return 0;
}
