#!/usr/bin/env bash
# Checks that the invoked build of examples/share-between-processes ran the program (mvn compile exec:exec): it
# started the owner as a second JVM, received both batches from it with no copy, and the owner exited 0 once they
# were released; with no warning from either JVM.
# Usage: share-example-ran.sh <the invoked build's build.log>
set -euo pipefail

log="$1"
[ -f "$log" ] || { echo "$log is missing: did the invoked build of examples/share-between-processes run?" >&2; exit 1; }
output="$(sed 's/^\[INFO\] //' "$log")"
for expected in 'zero-copy [{id=1, name=a}, {id=2, name=b}]' 'zero-copy [{id=3, name=null}, {id=null, name=d}]' 'owner exited with 0'; do
  grep -qxF "$expected" <<<"$output" || { echo "FAIL: the sharing example did not print $expected; see $log" >&2; exit 1; }
done
! grep -q '^WARNING' <<<"$output" || { echo "FAIL: a JVM warned while running the sharing example; see $log" >&2; exit 1; }
echo "ok: the sharing example received both batches zero-copy from its owner process"
