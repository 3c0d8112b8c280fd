#!/usr/bin/env bash
# Runs `quiver flight serve`, `flight get` and `flight list` through the launcher, as a user of a fresh clone does,
# in separate processes: the server serves a generated stream, the client fetches it onto the CPU and writes it to
# a file, then lists what the server serves.
# This is what the tests' class path cannot prove: that the launcher's lib-flight holds every jar the flight
# commands need at run time.
# Usage: flight-through-the-launcher.sh <quiver checkout> <scratch directory>
set -euo pipefail

root="$1"
scratch="$2"
mkdir -p "$scratch"
served="$scratch/serve.out"
landed="$scratch/landed.arrow"
rm -f "$served" "$landed"

fail() {
  echo "FAIL: $*" >&2
  [ -f "$served" ] && sed 's/^/  serve: /' "$served" >&2
  exit 1
}

# help and the version load every command class, on the module path without Arrow Flight's jars: a command class
# that names a Flight class breaks them there (the tests' class path has every jar and cannot tell)
for words in "--version" "--help" "flight --help"; do
  # shellcheck disable=SC2086 # the words are meant to split
  out=$(QUIVER_NO_BUILD=1 "$root/quiver" $words 2>&1) || { echo "$out" >&2; fail "quiver $words failed"; }
  ! grep -q 'Exception\|Error:' <<<"$out" || { echo "$out" >&2; fail "quiver $words printed an exception"; }
done

QUIVER_NO_BUILD=1 "$root/quiver" flight serve --generate 1000 --port 0 --seconds 120 > "$served" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT

for _ in $(seq 1 120); do
  grep -q '^stream generated ticket ' "$served" && break
  kill -0 "$server" 2>/dev/null || fail "flight serve exited before serving"
  sleep 0.5
done
uri=$(grep -o 'grpc+tcp://[0-9.]*:[0-9]*' "$served" | head -1)
ticket=$(sed -n 's/^stream generated ticket \([^ ]*\) .*/\1/p' "$served" | head -1)
[ -n "$uri" ] && [ -n "$ticket" ] || fail "flight serve printed no address and ticket"

out=$(QUIVER_NO_BUILD=1 "$root/quiver" flight get "$uri" "$ticket" --output "$landed" 2>&1) \
  || { echo "$out" >&2; fail "flight get failed"; }
echo "$out"
grep -q 'received 8 batches, 1000 rows' <<<"$out" || fail "flight get did not receive the 8 batches of 1000 rows"
[ -s "$landed" ] || fail "flight get wrote no $landed"
! grep -q 'WARNING\|Exception' <<<"$out" || fail "flight get warned or printed an exception"
! grep -q 'WARNING\|Exception' "$served" || fail "flight serve warned or printed an exception"
listed=$(QUIVER_NO_BUILD=1 "$root/quiver" flight list "$uri" 2>&1) || { echo "$listed" >&2; fail "flight list failed"; }
[ "$listed" = "stream generated ticket $ticket rows 1000" ] || fail "flight list printed: $listed"
echo "ok: help, the version, flight serve, flight get and flight list ran through the launcher"
