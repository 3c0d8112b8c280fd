/*
 * Producers that end or stop the process they run in, for the tests that `quiver check` survives them:
 * each must become a verdict of the checker, never a crash of it.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include "check_batch.h"

static void crash_on_release(struct ArrowArray* array) {
  (void) array;
  *(volatile int*) 8 = 1;
}

/* Writes through a NULL pointer: SIGSEGV inside the producer. */
int crash_segfault(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  (void) out;
  (void) out_schema;
  *(volatile int*) 0 = 1;
  return 0;
}

/* Calls abort(): SIGABRT, which the JVM does not handle. */
int crash_abort(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  (void) out;
  (void) out_schema;
  abort();
}

/* Ends the process with exit status 3. */
int crash_exit(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  (void) out;
  (void) out_schema;
  _exit(3);
}

/* Ends the process with exit status 0, before any report could be written. */
int crash_exit_zero(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  (void) out;
  (void) out_schema;
  _exit(0);
}

/* Never returns. */
int hang_forever(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  (void) out;
  (void) out_schema;
  for (;;) {
    pause();
  }
}

/* A conforming batch whose release callback crashes: the crash comes after the checks, when the checker
 * releases the array. */
int crash_in_release(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  batch_device_array(out);
  batch_schema(out_schema);
  out->array.release = crash_on_release;
  return 0;
}
