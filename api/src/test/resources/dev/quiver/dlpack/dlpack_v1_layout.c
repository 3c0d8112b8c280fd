/* Layouts of our DLPack 1.x declarations, including the versioned struct. */
#include "dlpack_v1.h"
#include "dlpack_layout.h"

int main(void) {
  print_tensor_layout();
  PRINT_SIZE(DLPackVersion);
  PRINT_OFFSET(DLPackVersion, major);
  PRINT_OFFSET(DLPackVersion, minor);
  PRINT_SIZE(DLManagedTensorVersioned);
  PRINT_OFFSET(DLManagedTensorVersioned, version);
  PRINT_OFFSET(DLManagedTensorVersioned, manager_ctx);
  PRINT_OFFSET(DLManagedTensorVersioned, deleter);
  PRINT_OFFSET(DLManagedTensorVersioned, flags);
  PRINT_OFFSET(DLManagedTensorVersioned, dl_tensor);
  printf("DLPACK_FLAG_BITMASK_READ_ONLY %llu\n", (unsigned long long) DLPACK_FLAG_BITMASK_READ_ONLY);
  printf("DLPACK_FLAG_BITMASK_IS_COPIED %llu\n", (unsigned long long) DLPACK_FLAG_BITMASK_IS_COPIED);
  printf("DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED %llu\n", (unsigned long long) DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED);
  return 0;
}
