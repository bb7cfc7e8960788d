#!/usr/bin/env bash
# Prints the Python package's speed figures (py/bench/bench.py; nothing asserts a
# time): the release wheel (cargo profile `python`) installed in the set-up's
# virtual environment, the release CLI, and the batch of scripts/bench-cli.sh
# (5,000 traces of 20 candidates, seed 42, as JSON Lines, about 37.5 MB).
#   bash scripts/bench-python.sh
#   RAGTRACE_BENCH_RAY_FILES=8 bash scripts/bench-python.sh    also Ray Data over 4 local
#                     workers on 8 generated files of 140,000/8 traces each (about 1 GB)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
venv="$RAGTRACE_TOOLS_DIR/python-venv"
[ -x "$venv/bin/python" ] || { echo "bench-python: run scripts/setup.sh first" >&2; exit 2; }
target=${CARGO_TARGET_DIR:-$ROOT/target}
out="$target/cli-bench"
mkdir -p "$out"

cargo build --quiet --release -p ragtrace-core --features cli
cargo build --quiet --release -p ragtrace-js --example generate_batch
wheels="$target/python-wheels"
rm -rf "$wheels"
VIRTUAL_ENV="$venv" "$venv/bin/maturin" build --quiet --manifest-path py/Cargo.toml \
  --interpreter "$venv/bin/python" --out "$wheels"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
  --force-reinstall "$wheels"/ragtrace-*.whl

gen="$target/release/examples/generate_batch"
batch="$out/batch-5000x20.jsonl"
[ -s "$batch" ] || "$gen" --lines 5000 20 42 >"$batch"
ray_files=()
files=${RAGTRACE_BENCH_RAY_FILES:-0}
for ((i = 0; i < files; i++)); do
  part="$out/ray-$i-of-$files.jsonl"
  [ -s "$part" ] || "$gen" --lines $((140000 / files)) 20 $((100 + i)) >"$part"
  ray_files+=("$part")
done
"$venv/bin/python" py/bench/bench.py --cli "$target/release/ragtrace" "$batch" \
  ${ray_files[@]+--ray-files "${ray_files[@]}"}
