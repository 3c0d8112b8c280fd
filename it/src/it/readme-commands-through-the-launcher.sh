#!/usr/bin/env bash
# Runs the README's ./quiver commands through the launcher, as a user of a fresh clone does (flight, share
# and attach have scripts of their own): devices, selftest, bench, and check against a producer compiled here
# with gcc, a conforming one and one that crashes. Fails when the README or a page under docs/ names a
# ./quiver command that no script of it/ runs, so a new command cannot reach the docs untried.
# Usage: readme-commands-through-the-launcher.sh <quiver checkout> <scratch directory>
set -euo pipefail

root="$1"
scratch="$2"
mkdir -p "$scratch"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# run <expected exit code> <args...>: runs ./quiver, prints what it printed, and fails on another exit code,
# a Java exception or a JVM warning
run() {
  local expected="$1" out code=0
  shift
  out="$(QUIVER_NO_BUILD=1 "$root/quiver" "$@" 2>&1)" || code=$?
  echo "$out" >&2
  [ "$code" = "$expected" ] || fail "./quiver $* exited $code, not $expected"
  ! grep -q 'Exception\|WARNING' <<<"$out" || fail "./quiver $* printed an exception or a warning"
  echo "$out"
}

commands_run=(devices selftest bench check flight share attach)
for command in $(grep -rho --include='*.md' '\./quiver [a-z]*' "$root/README.md" "$root/docs" | awk '{print $2}' | sort -u); do
  [[ " ${commands_run[*]} " == *" $command "* ]] || fail "the README or docs/ show ./quiver $command, which no script of it/ runs"
done

out=$(run 0 devices)
grep -q '^cpu .*USABLE' <<<"$out" || fail "devices lists no usable cpu backend"
out=$(run 0 devices --json)
grep -q '"backends"' <<<"$out" || fail "devices --json printed no backends"

out=$(run 0 selftest)
grep -q 'PASS' <<<"$out" || fail "selftest reported no pass"
out=$(run 0 selftest --device cpu)
grep -q 'PASS' <<<"$out" || fail "selftest --device cpu reported no pass"
run 2 selftest --device nosuch >/dev/null

out=$(run 0 bench)
grep -q '^export+import+release 1 x int32, 1000 rows' <<<"$out" || fail "bench printed no export row"
wide=$(grep -v '^quiver bench: [0-9]* done' <<<"$out" | awk 'length($0) > 100') || true
[ -z "$wide" ] || fail "bench printed lines over 100 columns: $wide"
out=$(run 0 bench --memory --sizes 1)
grep -q '^round trip 1 MiB' <<<"$out" || fail "bench --memory printed no round trip"
out=$(run 0 bench --flight --sizes 1)
grep -q '^1 MiB  *64  *Quiver to CPU  *[1-9]' <<<"$out" || fail "bench --flight printed no Quiver row"
wide=$(grep -v '^quiver bench --flight: ' <<<"$out" | awk 'length($0) > 100') || true
[ -z "$wide" ] || fail "bench --flight printed lines over 100 columns: $wide"

cat > "$scratch/producer.c" <<'C'
#include <stdint.h>
#include <stdlib.h>

struct ArrowArray {
  int64_t length, null_count, offset, n_buffers, n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags, n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};
struct ArrowDeviceArray {
  struct ArrowArray array;
  int64_t device_id;
  int32_t device_type;
  void* sync_event;
  int64_t reserved[3];
};

static const int32_t values[3] = {1, 2, 3};

static void release_array(struct ArrowArray* array) {
  free(array->buffers);
  array->release = NULL;
}

static void release_schema(struct ArrowSchema* schema) {
  schema->release = NULL;
}

int make_batch(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  const void** buffers = malloc(2 * sizeof(void*));
  buffers[0] = NULL;
  buffers[1] = values;
  *out = (struct ArrowDeviceArray) {
    .array = {.length = 3, .n_buffers = 2, .buffers = buffers, .release = release_array},
    .device_id = -1, .device_type = 1};
  *out_schema = (struct ArrowSchema) {.format = "i", .name = "x", .flags = 2, .release = release_schema};
  return 0;
}

int crash_batch(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema) {
  (void) out;
  (void) out_schema;
  *(volatile int*) 0 = 1;
  return 0;
}
C
gcc -shared -fPIC -o "$scratch/libproducer.so" "$scratch/producer.c" || fail "gcc could not build the producer"
out=$(run 0 check "$scratch/libproducer.so" make_batch --schema)
grep -q '^result: CONFORMING' <<<"$out" || fail "check did not find the producer conforming"
out=$(run 0 check "$scratch/libproducer.so" make_batch --schema --json)
grep -q '"conforming": true' <<<"$out" || fail "check --json did not say conforming"
out=$(cd "$scratch" && run 1 check libproducer.so crash_batch --schema)
grep -q 'producer\.crash .*SIGSEGV' <<<"$out" || fail "check did not report the crash as producer.crash with its signal"
! ls "$scratch"/hs_err* >/dev/null 2>&1 || fail "check left a crash log in the working directory"
run 2 check "$scratch/libproducer.so" no_such_function >/dev/null

echo "ok: devices, selftest, bench and check ran through the launcher"
