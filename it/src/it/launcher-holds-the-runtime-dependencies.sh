#!/usr/bin/env bash
# Checks the launcher's jar folders against what the modules need at run time (each module's
# target/runtime-classpath.txt, written by the build): cli/target/lib, the module path of every command but
# flight, holds the run-time jars of the API, the checker, sharing and every backend; lib and lib-bench together
# hold those of the C baselines of quiver bench, and lib-bench holds nothing else, so that no other command runs
# with them; lib and lib-flight together hold those of quiver-flight. A scope that drops a jar from them (a test
# scope overriding a transitive one) fails here, not in a user's hands.
# Usage: launcher-holds-the-runtime-dependencies.sh <quiver checkout>
set -euo pipefail

root="$1"
lib="$root/cli/target/lib"
flight="$root/cli/target/lib-flight"
bench="$root/cli/target/lib-bench"
# Netty's OpenSSL: one jar per platform and its Java classes, left out on purpose (TLS uses the JDK's; see
# cli/pom.xml)
left_out='^netty-tcnative-\(boringssl-static\|classes\)-'
missing=0

# expect <module> <folder...>: every jar of the module's run-time class path is in one of the folders
expect() {
  local module="$1" listing jar name
  shift
  listing="$root/$module/target/runtime-classpath.txt"
  [ -f "$listing" ] || { echo "FAIL: $listing is missing: did the build of $module run?" >&2; exit 1; }
  for jar in $(tr ':' ' ' < "$listing"); do
    name="$(basename "$jar")"
    grep -q "$left_out" <<<"$name" && continue
    local found=no folder
    for folder in "$@"; do
      [ -f "$folder/$name" ] && found=yes
    done
    if [ "$found" = no ]; then
      echo "FAIL: $module needs $name at run time, but the launcher's $(printf '%s ' "${@##*/}")lacks it" >&2
      missing=$((missing + 1))
    fi
  done
}

for module in api check share device-cpu device-ffm device-opencl device-vulkan device-cuda device-rocm device-oneapi device-metal; do
  expect "$module" "$lib"
done
expect baselines "$lib" "$bench"
expect flight "$lib" "$flight"
for jar in "$lib"/quiver-baselines-*.jar "$lib"/quiver-cbuild-*.jar "$flight"/quiver-baselines-*.jar "$flight"/quiver-cbuild-*.jar; do
  if [ -e "$jar" ]; then
    echo "FAIL: $jar is on the path of commands other than bench" >&2
    missing=$((missing + 1))
  fi
done
for jar in "$bench"/*.jar; do
  [ -e "$jar" ] || continue
  case "$(basename "$jar")" in
    quiver-baselines-*|quiver-cbuild-*) ;;
    *) echo "FAIL: $jar is in lib-bench, which holds the C baselines and their compiler only" >&2; missing=$((missing + 1)) ;;
  esac
done
[ "$missing" = 0 ] || exit 1
echo "ok: the launcher's lib, lib-bench and lib-flight hold every run-time jar of the modules it runs, and lib-bench only the baselines"
