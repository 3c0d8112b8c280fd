#!/usr/bin/env bash
# Checks that ./quiver picks up the example vendor plugin from QUIVER_PLUGINS: `devices` lists it as
# USABLE and `selftest` moves a record batch through it, on the module path and on the class path.
# Usage: quiver-lists-the-plugin.sh <quiver checkout> <plugin jar>
set -euo pipefail

root="$1"
jar="$2"
[ -f "$jar" ] || { echo "plugin jar $jar is missing: did the invoked build of examples/vendor-plugin run?" >&2; exit 1; }

fail() {
  echo "FAIL ($mode): $*" >&2
  exit 1
}

# quiver <args...>: runs ./quiver with the plugin (and the environment in $mode_env), prints and returns
# what it printed; fails if it fails or the JVM warns.
quiver() {
  local out
  out="$(env $mode_env QUIVER_NO_BUILD=1 QUIVER_PLUGINS="$jar" "$root/quiver" "$@" 2>&1)" \
    || { echo "$out" >&2; fail "./quiver $* failed"; }
  echo "$out" >&2
  ! grep -q 'WARNING' <<<"$out" || fail "the JVM warned during ./quiver $*"
  echo "$out"
}

check_mode() {
  mode="$1"
  mode_env="$2"
  local out
  out="$(quiver devices)"
  grep -Eq '^hostext +USABLE +EXT_DEV:0 ' <<<"$out" || fail "./quiver devices does not list hostext as USABLE"
  grep -Eq '^cpu +USABLE +CPU:-1 ' <<<"$out" || fail "./quiver devices lost the CPU backend"
  out="$(quiver selftest --rows 1000)"
  grep -Eq '^EXT_DEV:0 .* hostext .*PASS$' <<<"$out" || fail "selftest did not pass on the hostext device"
  echo "ok ($mode): hostext is listed as USABLE and passes the selftest"
}

check_mode "module path" ""
check_mode "class path" "QUIVER_CLASSPATH_MODE=1"
