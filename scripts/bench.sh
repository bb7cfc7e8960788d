#!/usr/bin/env bash
# Prints the speed figures quoted in README.md: the native benchmarks (criterion)
# and the browser benchmark (headless Chromium). Nothing here asserts a time.
#   bash scripts/bench.sh            both
#   bash scripts/bench.sh native     only `cargo bench -p ragtrace-core`
#   bash scripts/bench.sh browser    only the page benchmark
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
bash scripts/setup.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh

which=${1:-all}
if [ "$which" = all ] || [ "$which" = native ]; then
  cargo bench -p ragtrace-core --bench analyze
  cargo bench -p ragtrace-core --bench calibration
fi
if [ "$which" = all ] || [ "$which" = browser ]; then
  # Compiled as the site is (opt-level z, LTO, one codegen unit, no debug
  # assertions or overflow checks) but through the dev profile: `--release`
  # would also take `panic = "abort"`, which the test harness cannot link with
  # the core's cdylib.
  CARGO_PROFILE_DEV_OPT_LEVEL=z \
  CARGO_PROFILE_DEV_LTO=true \
  CARGO_PROFILE_DEV_CODEGEN_UNITS=1 \
  CARGO_PROFILE_DEV_DEBUG=0 \
  CARGO_PROFILE_DEV_DEBUG_ASSERTIONS=false \
  CARGO_PROFILE_DEV_OVERFLOW_CHECKS=false \
  CARGO_PROFILE_DEV_INCREMENTAL=false \
  CARGO_TARGET_DIR="$ROOT/target/bench-wasm" \
    with_wasm_toolchain wasm-pack --log-level warn test --headless --chrome web \
      --features bench --test bench_slider -- --nocapture 2>&1 | grep '^bench:'
fi
