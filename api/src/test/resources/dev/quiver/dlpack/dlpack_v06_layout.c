/* Layouts of Debian's libdlpack-dev header (DLPack 0.6: the legacy struct only). */
#include <dlpack/dlpack.h>
#include "dlpack_layout.h"

int main(void) {
  printf("DLPACK_VERSION %d\n", DLPACK_VERSION);
  print_tensor_layout();
  return 0;
}
