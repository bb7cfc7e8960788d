#!/usr/bin/env bash
# Tests scripts/npm.sh, the set-up's npm, as a fresh machine would meet it: an
# npm on PATH that runs is used as it is; a broken or absent one is replaced by
# npm's own package from the registry, checked and run with the machine's node;
# a package that does not match the pinned integrity is refused; once unpacked,
# it is reused without the network.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node_bin=$(command -v node) || {
  echo "test-npm: needs a node on PATH" >&2
  exit 1
}

failures=0
pass() { printf 'ok   %s\n' "$1"; }
fail() {
  printf 'FAIL %s\n' "$1"
  failures=$((failures + 1))
}

# Runs the body in a fresh shell with npm.sh sourced, a fresh tools prefix and
# the given PATH; prints what ragtrace_npm --version prints.
run_with() {
  local path=$1 tools=$2
  shift 2
  env -i HOME="$work" PATH="$path" RAGTRACE_TOOLS_DIR="$tools" "$@" bash -c '
    set -euo pipefail
    log() { printf "setup: %s\n" "$*" >&2; }
    apt_install() { log "would apt-get install $*"; return 1; }
    source "$1"
    ragtrace_npm --version
    printf "%s\n" "${RAGTRACE_NPM[*]}" >&2
  ' _ "$ROOT/scripts/npm.sh"
}

# A bin folder holding everything on the machine's PATH but npm.
no_npm="$work/no-npm"
mkdir -p "$no_npm"
IFS=: read -r -a dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] || continue
  for exe in "$dir"/*; do
    name=${exe##*/}
    # -L as well as -e: a dangling link (e.g. a rustup proxy of a removed tool) was
    # linked from an earlier folder of PATH and still shadows this one.
    [ "$name" = npm ] || [ "$name" = npx ] || [ -e "$no_npm/$name" ] || [ -L "$no_npm/$name" ] ||
      ln -s "$exe" "$no_npm/$name"
  done
done

# An npm that is on PATH but does not run, as NodeSource's incomplete one.
broken="$work/broken"
mkdir -p "$broken"
printf '#!/bin/sh\necho "Error: Cannot find module ../lib/cli.js" >&2\nexit 1\n' >"$broken/npm"
chmod +x "$broken/npm"

# An npm that runs.
working="$work/working"
mkdir -p "$working"
printf '#!/bin/sh\necho 9.9.9\n' >"$working/npm"
chmod +x "$working/npm"

pinned=$(sed -n 's/^RAGTRACE_NPM_VERSION=//p' "$ROOT/scripts/npm.sh")

if out=$(run_with "$working:$no_npm" "$work/tools-working" 2>"$work/err") && [ "$out" = 9.9.9 ] &&
  [ ! -e "$work/tools-working" ]; then
  pass "an npm on PATH that runs is used as it is"
else
  fail "an npm on PATH that runs is used as it is (got '$out'; $(cat "$work/err"))"
fi

if out=$(run_with "$broken:$no_npm" "$work/tools" 2>"$work/err") && [ "$out" = "$pinned" ] &&
  grep -q "$node_bin\|^node " "$work/err"; then
  pass "a broken npm is replaced by npm $pinned from the registry, run with node"
else
  fail "a broken npm is replaced by npm $pinned (got '$out'; $(cat "$work/err"))"
fi

if out=$(run_with "$no_npm" "$work/tools" RAGTRACE_NPM_REGISTRY=http://127.0.0.1:9 2>"$work/err") &&
  [ "$out" = "$pinned" ]; then
  pass "an absent npm: the unpacked package is reused without the network"
else
  fail "an absent npm: the unpacked package is reused (got '$out'; $(cat "$work/err"))"
fi

# The integrity is read from npm.sh: a copy with another pin must refuse the package.
sed 's/^RAGTRACE_NPM_INTEGRITY=sha512-./RAGTRACE_NPM_INTEGRITY=sha512-X/' "$ROOT/scripts/npm.sh" >"$work/npm-wrong-pin.sh"
if out=$(env -i HOME="$work" PATH="$no_npm" RAGTRACE_TOOLS_DIR="$work/tools-wrong" bash -c '
    set -euo pipefail
    log() { printf "setup: %s\n" "$*" >&2; }
    apt_install() { return 1; }
    source "$1"
    ragtrace_npm --version
  ' _ "$work/npm-wrong-pin.sh" 2>"$work/err"); then
  fail "a package that does not match the pinned integrity is refused (it ran: '$out')"
elif grep -q "does not match the registry's integrity" "$work/err" &&
  [ ! -e "$work/tools-wrong/npm-$pinned/package" ]; then
  pass "a package that does not match the pinned integrity is refused"
else
  fail "a package that does not match the pinned integrity is refused ($(cat "$work/err"))"
fi

if [ "$failures" -ne 0 ]; then
  echo "test-npm: $failures failed" >&2
  exit 1
fi
echo "test-npm: the set-up's npm bootstrap works with a working, broken or absent npm"
