#!/usr/bin/env bash
# Every check CI runs: formatting, the README's serve command, lints (native and
# wasm32), native tests, the Python package's tests, browser tests in headless Chromium and Firefox, the JS
# package's TypeScript declarations, and a release build of the site.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# Each step prints the time the previous one took, and the run ends with the total,
# so a CI log shows where the minutes go.
run_start=$SECONDS
step_start=$SECONDS
step_name=
elapsed() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
end_step() {
  if [ -n "$step_name" ]; then
    printf '<== %s: %s\n' "$step_name" "$(elapsed $((SECONDS - step_start)))"
  fi
}
step() {
  end_step
  step_name=$*
  step_start=$SECONDS
  printf '\n==> %s\n' "$*"
}
step "the set-up's npm: working, broken or absent (scripts/test-npm.sh)"
bash scripts/test-npm.sh
step "set-up (scripts/setup.sh)"
bash scripts/setup.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh

# The disk this run writes to, before and after: a run from a clean clone writes
# several GB to target/ (README.md), and a full disk fails mid-build.
disk() { df -h "$ROOT" | awk -v when="$1" 'NR == 2 { print "disk " when ": " $4 " free of " $2 }'; }
disk "at start"
# A run from a clean clone is built once: incremental caches only cost disk.
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}

step "cargo fmt --check"
cargo fmt --all -- --check

# First, while a clean clone has built nothing yet: what a newcomer's first command
# meets (the set-up, a first build, the folders Trunk expects).
step "the README's serve command serves the app (scripts/check-serve.sh)"
bash scripts/check-serve.sh

step "cargo clippy (native, -D warnings)"
cargo clippy --workspace --all-targets --all-features --quiet -- -D warnings

step "wasm32 clippy (-D warnings)"
# The same lints on both routes: rustup's clippy, or Debian's rust-web-clippy
# wired into the linked toolchain by scripts/setup.sh. Benchmarks are native
# only (criterion does not build for wasm32), and so is the Python package.
with_wasm_toolchain cargo clippy --workspace --exclude ragtrace-py --lib --bins --tests \
  --features ragtrace-web/bench --target wasm32-unknown-unknown --quiet -- -D warnings
# The page as the site builds it: split at its lazily loaded parts (web/src/lazy/).
# Its own target dir: other rustflags would rebuild everything above.
RUSTFLAGS="--cfg erase_components --cfg ragtrace_split" CARGO_TARGET_DIR="$ROOT/target/split-clippy" \
  with_wasm_toolchain cargo clippy -p ragtrace-web --lib --target wasm32-unknown-unknown --quiet -- -D warnings

step "native tests"
cargo test --workspace --all-features

step "Python package: wheel, pytest, type check, engines (scripts/test-python.sh)"
bash scripts/test-python.sh

step "fuzz smoke (seconds per target, from the seeds)"
# Where a nightly toolchain exists, the set-up installed cargo-fuzz (pinned) into the
# tools prefix, and every target runs a few seconds; a crash fails the run. The long
# runs are scripts/fuzz.sh (docs/reliability.md).
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  bash scripts/fuzz.sh "${RAGTRACE_FUZZ_SECONDS:-5}"
else
  echo "skipped: needs a nightly toolchain (rustup toolchain install nightly)"
fi

# The runner's defaults (20 s for a whole test file, 5 s for a driver to start)
# are too tight for a busy 2-core machine: a Firefox run of web/tests/app.rs was
# cut off once while other builds shared the cores, with every test passing on
# the re-run. Generous limits change nothing for a run that passes. The many-run
# tests wait for 10,000 permutations and resamples in an unoptimised build.
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-600}
export WASM_BINDGEN_TEST_DRIVER_TIMEOUT=${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-60}

browsers=(--chrome --firefox)
if [ -n "${RAGTRACE_BROWSERS:-}" ]; then
  read -r -a browsers <<<"$RAGTRACE_BROWSERS"
fi
# The core has no browser tests of its own: the JS API's (js) run it in wasm.
step "browser tests: js (${browsers[*]})"
with_wasm_toolchain wasm-pack --log-level warn test --headless "${browsers[@]}" js
# The page's tests run it as one module; the site's split (web/src/lazy/) is
# checked by the site audit below, which opens every tab in both browsers.
step "browser tests: web (${browsers[*]})"
with_wasm_toolchain wasm-pack --log-level warn test --headless "${browsers[@]}" web

step "TypeScript declarations of the JS package (tsc)"
bash scripts/check-types.sh

step "release build of the static site"
bash scripts/build-site.sh

# What the site does in a browser: only its own files requested, nothing run from
# trace text, no CSP violation or console error, keyboard use, axe-core clean.
step "site audit (${browsers[*]})"
RAGTRACE_BROWSERS="${browsers[*]}" bash scripts/audit-site.sh

step "disk"
disk "at end"
du -sh "$ROOT/target" | awk '{ print "target/: " $1 }'
end_step
printf '\nall checks passed in %s\n' "$(elapsed $((SECONDS - run_start)))"
