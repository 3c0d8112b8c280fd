/*
 * Prints what the C compiler decides about the Arrow C Data / C Device Data structs:
 *   <struct> sizeof <n>
 *   <struct> alignof <n>
 *   <struct> <field> <offset> <size>
 * One line each; AbiLayoutTest compares them with the Java layouts.
 */
#include <stddef.h>
#include <stdio.h>
#include "arrow_c_abi.h"

#define STRUCT(T) \
  printf(#T " sizeof %zu\n", sizeof(struct T)); \
  printf(#T " alignof %zu\n", (size_t) _Alignof(struct T))
#define FIELD(T, f) \
  printf(#T " " #f " %zu %zu\n", offsetof(struct T, f), sizeof(((struct T*) 0)->f))

int main(void) {
  STRUCT(ArrowSchema);
  FIELD(ArrowSchema, format);
  FIELD(ArrowSchema, name);
  FIELD(ArrowSchema, metadata);
  FIELD(ArrowSchema, flags);
  FIELD(ArrowSchema, n_children);
  FIELD(ArrowSchema, children);
  FIELD(ArrowSchema, dictionary);
  FIELD(ArrowSchema, release);
  FIELD(ArrowSchema, private_data);

  STRUCT(ArrowArray);
  FIELD(ArrowArray, length);
  FIELD(ArrowArray, null_count);
  FIELD(ArrowArray, offset);
  FIELD(ArrowArray, n_buffers);
  FIELD(ArrowArray, n_children);
  FIELD(ArrowArray, buffers);
  FIELD(ArrowArray, children);
  FIELD(ArrowArray, dictionary);
  FIELD(ArrowArray, release);
  FIELD(ArrowArray, private_data);

  STRUCT(ArrowDeviceArray);
  FIELD(ArrowDeviceArray, array);
  FIELD(ArrowDeviceArray, device_id);
  FIELD(ArrowDeviceArray, device_type);
  FIELD(ArrowDeviceArray, sync_event);
  FIELD(ArrowDeviceArray, reserved);
  return 0;
}
