/* Prints the size and field offsets of the DLPack structs, one "name value" line each. */
#ifndef QUIVER_DLPACK_LAYOUT_H
#define QUIVER_DLPACK_LAYOUT_H

#include <stddef.h>
#include <stdio.h>

#define PRINT_SIZE(type) printf("%s %zu\n", #type, sizeof(type))
#define PRINT_OFFSET(type, field) printf("%s.%s %zu\n", #type, #field, offsetof(type, field))

static void print_tensor_layout(void) {
  PRINT_SIZE(DLDevice);
  PRINT_OFFSET(DLDevice, device_type);
  PRINT_OFFSET(DLDevice, device_id);
  PRINT_SIZE(DLDataType);
  PRINT_OFFSET(DLDataType, code);
  PRINT_OFFSET(DLDataType, bits);
  PRINT_OFFSET(DLDataType, lanes);
  PRINT_SIZE(DLTensor);
  PRINT_OFFSET(DLTensor, data);
  PRINT_OFFSET(DLTensor, device);
  PRINT_OFFSET(DLTensor, ndim);
  PRINT_OFFSET(DLTensor, dtype);
  PRINT_OFFSET(DLTensor, shape);
  PRINT_OFFSET(DLTensor, strides);
  PRINT_OFFSET(DLTensor, byte_offset);
  PRINT_SIZE(DLManagedTensor);
  PRINT_OFFSET(DLManagedTensor, dl_tensor);
  PRINT_OFFSET(DLManagedTensor, manager_ctx);
  PRINT_OFFSET(DLManagedTensor, deleter);
}

#endif
