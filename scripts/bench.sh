#!/usr/bin/env bash
# Prints the speed figures quoted in README.md: the native benchmarks (criterion),
# the browser benchmark (headless Chromium) and the JS API in Node. Nothing here
# asserts a time.
#   bash scripts/bench.sh            all three
#   bash scripts/bench.sh native     only `cargo bench -p ragtrace-core`
#   bash scripts/bench.sh browser    only the page benchmark
#   bash scripts/bench.sh js         only the JS API benchmark (js/bench/analyze.mjs), on
#                                    the generated batch and on real-shaped OTLP spans
#   bash scripts/bench.sh cli        only the streamed CLI (scripts/bench-cli.sh; not in "all":
#                                    it writes a 1 GB file)
#   bash scripts/bench.sh site       only the built site: knob -> painted frame at 100,000
#                                    candidates, the CPU at full speed and throttled 2x and 4x
#                                    (web/audit/bench-knob.cjs; not in "all": it builds the site)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
which=${1:-all}
if [ "$which" = cli ]; then
  exec bash scripts/bench-cli.sh
fi
bash scripts/setup.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh

if [ "$which" = all ] || [ "$which" = native ]; then
  cargo bench -p ragtrace-core --bench analyze
  cargo bench -p ragtrace-core --bench calibration
  cargo bench -p ragtrace-core --bench compare
  cargo bench -p ragtrace-core --bench partial
fi
if [ "$which" = all ] || [ "$which" = browser ]; then
  # Compiled as the site is: the release profile at the site profile's opt-level z
  # (LTO, one codegen unit). bench_load reads a 429 MB file: far longer than the
  # runner's default 20 s.
  WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-900} CARGO_TARGET_DIR="$ROOT/target/bench-wasm" \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=z \
    with_wasm_toolchain wasm-pack --log-level warn test --release --headless --chrome web \
      --features bench --test bench_slider --test bench_compare --test bench_load -- --nocapture 2>&1 | grep '^bench:'
fi
if [ "$which" = site ]; then
  # The browser benchmark's batch (10,000 traces of 10 candidates, seed 7) as a file.
  out="$ROOT/target/site-bench"
  mkdir -p "$out"
  cargo run --quiet --release -p ragtrace-js --example generate_batch -- --lines 10000 10 7 >"$out/batch.jsonl"
  bash scripts/build-site.sh >/dev/null
  NODE_PATH="$RAGTRACE_TOOLS_DIR/audit-node-modules" node web/audit/bench-knob.cjs dist "$out/batch.jsonl" 1 2 4
fi
if [ "$which" = all ] || [ "$which" = js ]; then
  # The package as `wasm-pack build --release` makes it, and the batch of
  # core/benches/analyze.rs (5,000 traces of 20 candidates, seed 42) as JSON lines.
  # analyze.mjs times it warm (7 runs in one process) and fresh (7 new Node processes
  # per variant, each timing its first call; the default counts, given here to show them).
  out="$ROOT/target/js-bench"
  mkdir -p "$out"
  with_wasm_toolchain wasm-pack --log-level warn build --release --target nodejs \
    --out-dir "$out/pkg" js >/dev/null
  cargo run --quiet --release -p ragtrace-js --example generate_batch >"$out/batch.jsonl"
  node js/bench/analyze.mjs "$out/pkg" "$out/batch.jsonl" 7 7
  # OTLP spans: the real-shaped traces of scripts/bench-real.sh (its first 1,430, 60 MB)
  # as LlamaIndex's instrumentor exports them, through the same two measurements.
  cargo run --quiet --release -p ragtrace-js --example generate_batch -- --shape real --otlp \
    1430 42 >"$out/otlp.jsonl"
  echo "js-bench: OTLP spans (real-shaped, as bash scripts/bench-real.sh writes them)"
  node js/bench/analyze.mjs "$out/pkg" "$out/otlp.jsonl" 7 7
fi
