/* The host limit for a round trip of a buffer: two memcpy calls (to a second buffer and back). */
#include <stdint.h>
#include <string.h>

int64_t bench_memcpy_round_trip(void* host, void* other, int64_t bytes, int64_t iterations) {
  for (int64_t i = 0; i < iterations; i++) {
    memcpy(other, host, (size_t)bytes);
    memcpy(host, other, (size_t)bytes);
  }
  return ((unsigned char*)host)[0];
}
