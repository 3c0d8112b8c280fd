#!/usr/bin/env bash
# Runs `quiver share` and `quiver attach` through the launcher, as a user of a fresh clone does, in separate
# processes: the owner shares a generated stream zero-copy, then with --copy, then on the Vulkan device (lavapipe
# here) to a receiver on that device; a receiver attaches to each and must say how every batch came. This is what the tests' class path cannot prove: that the launcher's module
# path holds quiver-share and grants it native access (a missing grant prints a JVM warning, which fails here).
# Usage: share-through-the-launcher.sh <quiver checkout> <scratch directory>
set -euo pipefail

root="$1"
scratch="$2"
mkdir -p "$scratch"
shared="$scratch/share.out"
rm -f "$shared"
owner=""

fail() {
  echo "FAIL: $*" >&2
  [ -f "$shared" ] && sed 's/^/  share: /' "$shared" >&2
  exit 1
}
trap '[ -n "$owner" ] && kill "$owner" 2>/dev/null || true' EXIT

# attach_to <expected summary line> <attach options, space-separated> [share options...]: starts the owner,
# attaches once, checks both sides
attach_to() {
  local expected="$1" attach_options="$2" socket out _
  shift 2
  rm -f "$shared"
  QUIVER_NO_BUILD=1 "$root/quiver" share --generate 1000 --batches 4 --seconds 120 "$@" > "$shared" 2>&1 &
  owner=$!
  for _ in $(seq 1 120); do
    grep -q '^sharing on ' "$shared" && break
    kill -0 "$owner" 2>/dev/null || fail "quiver share exited before listening"
    sleep 0.5
  done
  socket=$(sed -n 's/^sharing on //p' "$shared" | head -1)
  [ -n "$socket" ] || fail "quiver share printed no socket"
  # shellcheck disable=SC2086 # the options are words
  out=$(QUIVER_NO_BUILD=1 "$root/quiver" attach "$socket" --show 2 $attach_options 2>&1) || { echo "$out" >&2; fail "quiver attach failed"; }
  echo "$out"
  grep -q '^received 4 batches, 1000 rows' <<<"$out" || fail "quiver attach did not receive the 4 batches of 1000 rows"
  grep -qx "$expected" <<<"$out" || fail "quiver attach did not say: $expected"
  grep -qx 'id=1  value=0.5  name=row-1' <<<"$out" || fail "quiver attach did not show the second row"
  wait "$owner" || fail "quiver share exited with code $?"
  owner=""
  grep -q 'released every batch' "$shared" || fail "quiver share did not see the batches released"
  ! grep -q 'WARNING\|Exception' <<<"$out" || fail "quiver attach warned or printed an exception"
  ! grep -q 'WARNING\|Exception' "$shared" || fail "quiver share warned or printed an exception"
  cat "$shared"
}

attach_to '4 zero-copy, 0 copied' ''
attach_to '0 zero-copy, 4 copied' '' --copy
attach_to '4 zero-copy, 0 copied, every value valid' '--device vulkan:0 --validate' --device vulkan:0

out=$(QUIVER_NO_BUILD=1 "$root/quiver" attach "$scratch/nobody.sock" 2>&1) && fail "attach to a socket nobody listens at succeeded"
[ "$(wc -l <<<"$out")" = 1 ] || fail "attach to a socket nobody listens at printed more than one line: $out"
grep -q "$scratch/nobody.sock" <<<"$out" || fail "attach to a socket nobody listens at did not name it: $out"
echo "ok: share (zero-copy, --copy, --device vulkan:0) and attach ran through the launcher"
