#!/usr/bin/env bash
# Checks that the invoked build of examples/quickstart ran the program (mvn compile exec:exec) and that it
# printed what the README says, with no warning from the JVM.
# Usage: quickstart-ran.sh <the invoked build's build.log>
set -euo pipefail

log="$1"
expected='[{id=1, name=a}, {id=2, name=null}, {id=null, name=c}]'
[ -f "$log" ] || { echo "$log is missing: did the invoked build of examples/quickstart run?" >&2; exit 1; }
# exec:exec may print the program's lines as they are or through Maven's log
output="$(sed 's/^\[INFO\] //' "$log")"
grep -qxF "$expected" <<<"$output" || { echo "FAIL: the quick start did not print $expected; see $log" >&2; exit 1; }
! grep -q '^WARNING' <<<"$output" || { echo "FAIL: the JVM warned while running the quick start; see $log" >&2; exit 1; }
echo "ok: the quick start printed $expected"
