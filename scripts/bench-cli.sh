#!/usr/bin/env bash
# Prints the streamed CLI's figures (nothing here asserts a time):
# - `ragtrace analyze --format jsonl` on a generated JSON Lines file of about 1 GB:
#   wall time, throughput and peak RSS (memory bounded by the longest trace, not the file);
# - `ragtrace analyze --summary` on the 36 MB batch (5,000 traces of 20 candidates,
#   seed 42, as JSON Lines) against CPython's `json.loads` of the same lines (loading
#   only, the file already in memory), and the ratio (goal: at most 0.5).
# The release CLI is built as the README says. Generated files go to target/cli-bench
# and are kept for the next run (delete them to regenerate).
#   bash scripts/bench-cli.sh                  RAGTRACE_BENCH_GB_TRACES=140000 (~1 GB)
#   RAGTRACE_BENCH_RUNS=5                      runs per timed command (median printed)
#   CARGO_PROFILE_RELEASE_OPT_LEVEL=3 CARGO_TARGET_DIR=target/o3 bash scripts/bench-cli.sh
#                                              the same under another profile
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
command -v python3 >/dev/null || { echo "bench-cli: python3 is needed (timing, peak RSS and the json.loads reference)" >&2; exit 2; }

big_traces=${RAGTRACE_BENCH_GB_TRACES:-140000}
runs=${RAGTRACE_BENCH_RUNS:-5}
out="$ROOT/target/cli-bench"
mkdir -p "$out"

cargo build --quiet --release -p ragtrace-core --features cli
cargo build --quiet --release -p ragtrace-js --example generate_batch
target=${CARGO_TARGET_DIR:-$ROOT/target}
bin="$target/release/ragtrace"
gen="$target/release/examples/generate_batch"

batch="$out/batch-5000x20.jsonl"
big="$out/big-${big_traces}x20.jsonl"
[ -s "$batch" ] || "$gen" --lines 5000 20 42 >"$batch"
[ -s "$big" ] || "$gen" --lines "$big_traces" 20 7 >"$big"

python3 - "$bin" "$batch" "$big" "$runs" <<'PY'
import json, os, statistics, subprocess, sys, time

bin_, batch, big, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def run(args):
    """Wall seconds and peak RSS (MB) of one run of `args`, its output discarded."""
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"bench-cli: {' '.join(args)} exited {code}")
    return wall, usage.ru_maxrss / 1024

def mb(path):
    return os.path.getsize(path) / 1e6

# The gigabyte, streamed: once (it takes a while), then --summary once.
for flags in (["--format", "jsonl"], ["--summary"]):
    wall, rss = run([bin_, "analyze", *flags, big])
    print(f"bench: analyze {' '.join(flags)} on {mb(big):,.0f} MB of JSON Lines: "
          f"{wall:.1f} s ({mb(big) / wall:,.0f} MB/s), peak RSS {rss:,.1f} MB")

# The 36 MB batch: --summary against json.loads of the same lines.
times, rss = [], 0.0
for _ in range(runs):
    wall, peak = run([bin_, "analyze", "--summary", batch])
    times.append(wall)
    rss = max(rss, peak)
with open(batch, "rb") as f:
    lines = [line for line in f.read().split(b"\n") if line.strip()]
loads = []
for _ in range(runs):
    start = time.perf_counter()
    for line in lines:
        json.loads(line)
    loads.append(time.perf_counter() - start)
ours, theirs = statistics.median(times), statistics.median(loads)
print(f"bench: analyze --summary on {mb(batch):.1f} MB ({len(lines):,} traces): "
      f"{ours * 1000:.0f} ms median of {runs} (best {min(times) * 1000:.0f}), whole process, peak RSS {rss:.1f} MB")
print(f"bench: CPython {sys.version.split()[0]} json.loads of the same lines: "
      f"{theirs * 1000:.0f} ms median of {runs} (best {min(loads) * 1000:.0f})")
print(f"bench: ratio ragtrace / json.loads = {ours / theirs:.2f} (goal <= 0.50)")
PY
