#!/usr/bin/env bash
# Checks that the invoked build of examples/spark-device-kernels ran the Spark job (mvn compile exec:exec): its 4
# tasks each fetched their endpoint onto an OpenCL device, ran the kernels there and returned results (a DataFrame
# of 4 rows) that match the host's.
# Usage: spark-example-ran.sh <the invoked build's build.log>
set -euo pipefail

log="$1"
[ -f "$log" ] || { echo "$log is missing: did the invoked build of examples/spark-device-kernels run?" >&2; exit 1; }
output="$(sed 's/^\[INFO\] //' "$log")"
grep -qE '^every partition summed and filtered on OPENCL:0 .*: results match the host'"'"'s$' <<<"$output" \
  || { echo "FAIL: the Spark example did not report results matching the host's on OPENCL:0; see $log" >&2; exit 1; }
rows="$(grep -cE '^\|[0-3] +\|OPENCL:0 [^|]*\|200000 *\|' <<<"$output" || true)"
[ "$rows" = 4 ] || { echo "FAIL: the Spark example's DataFrame has $rows of its 4 rows on OPENCL:0; see $log" >&2; exit 1; }
echo "ok: the Spark example's 4 tasks ran the OpenCL kernels on their partitions"
