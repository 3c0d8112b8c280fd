/*
 * Test double of a CUDA 11 driver, for tests only: it has cuGetProcAddress (the CUDA 11.3 variant) but not
 * cuGetProcAddress_v2, which CUDA 12.0 added. The CUDA backend must report it as too old.
 */
#include <cuda.h>

#undef cuGetProcAddress
CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags);

CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags) {
  (void)symbol;
  (void)cudaVersion;
  (void)flags;
  *pfn = NULL;
  return CUDA_ERROR_NOT_FOUND;
}
