"""Speed figures of the Python package (printed, never asserted), against CPython's
json.loads of the same data in the same process:

- analyze(path).summary() on a JSON Lines batch vs json.loads of every line
  (lines already in memory), warm and as the first call of a fresh process;
- to_dict() of that analysis vs json.loads of the CLI's JSON of it;
- partial + merge of 8 shards vs analyze of the whole;
- merging 1,000 partials;
- with --ray-files: examples/ray_summary.py over local workers, in MB/s, beside
  single-process analyze and the CLI's analyze --summary.

Run it against a release build: scripts/bench-python.sh does.
    python py/bench/bench.py --cli target/release/ragtrace BATCH.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import ragtrace


def median_time(runs: int, work: Callable[[], Any]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def fresh_process(code: str) -> float:
    """Seconds the snippet's timed part took in a new interpreter (it prints them)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def line(label: str, ours: float, theirs: float, goal: str) -> None:
    print(f"bench: {label}: {ours * 1000:,.0f} ms vs {theirs * 1000:,.0f} ms = {ours / theirs:.2f}x (goal {goal})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("batch", help="a JSON Lines batch (scripts/bench-python.sh generates one)")
    parser.add_argument("--cli", required=True, help="the ragtrace CLI (release build)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--ray-files", nargs="*", default=[], help="JSON Lines files for the Ray figure")
    parser.add_argument("--ray-cpus", type=int, default=4)
    args = parser.parse_args()
    path, runs = args.batch, args.runs
    data = Path(path).read_bytes()
    mb = len(data) / 1e6
    lines = [l for l in data.split(b"\n") if l.strip()]
    print(f"bench: {path}: {mb:.1f} MB, {len(lines):,} traces, CPython {sys.version.split()[0]}, ragtrace {ragtrace.__version__}")

    loads = median_time(runs, lambda: [json.loads(l) for l in lines])
    summary = median_time(runs, lambda: ragtrace.analyze(path).summary())
    line("analyze(path).summary() vs json.loads of every line", summary, loads, "<= 0.5x")

    # The first call of a fresh process: import outside the timing, as a script would
    # have it done already; the file is in the page cache in both.
    first_ours = fresh_process(
        "import time, ragtrace\n"
        f"t = time.perf_counter(); ragtrace.analyze({path!r}).summary(); print(time.perf_counter() - t)"
    )
    first_loads = fresh_process(
        "import json, time\n"
        f"lines = [l for l in open({path!r}, 'rb').read().split(b'\\n') if l.strip()]\n"
        "t = time.perf_counter(); [json.loads(l) for l in lines]; print(time.perf_counter() - t)"
    )
    line("first call in a fresh process, analyze(path).summary() vs json.loads of every line", first_ours, first_loads, "<= 0.5x")
    imported = fresh_process("import time; t = time.perf_counter(); import ragtrace; print(time.perf_counter() - t)")
    print(f"bench: import ragtrace in a fresh process: {imported * 1000:.1f} ms")

    analysis = ragtrace.analyze(path)
    cli_json = subprocess.run([args.cli, "analyze", "--sweep", path], capture_output=True, check=True).stdout
    to_dict = median_time(runs, analysis.to_dict)
    loads_cli = median_time(runs, lambda: json.loads(cli_json))
    line(f"to_dict() vs json.loads of the CLI's JSON ({len(cli_json) / 1e6:.0f} MB)", to_dict, loads_cli, "<= 1.5x")
    assert analysis.to_dict() == json.loads(cli_json)

    shards = 8
    size = -(-len(lines) // shards)
    cuts = [(i * size, lines[i * size : (i + 1) * size]) for i in range(shards)]

    def sharded() -> dict[str, Any]:
        parts = [ragtrace.partial(shard, source=path, first_line=start + 1) for start, shard in cuts]
        return dict(ragtrace.merge(parts).summary())

    sharded_time = median_time(runs, sharded)
    line(f"partial + merge of {shards} shards vs analyze(path).summary()", sharded_time, summary, "<= 1.1x")
    assert sharded()["summary"] == analysis.summary()

    many = 1000
    size = -(-len(lines) // many)
    parts = [ragtrace.partial(lines[i * size : (i + 1) * size], source=path, first_line=i * size + 1) for i in range(many)]
    merged = median_time(runs, lambda: ragtrace.merge(parts))
    print(f"bench: merge of {many:,} partials: {merged * 1000:.1f} ms (goal < 50 ms)")
    encoded = [p.to_bytes() for p in parts]
    decoded = median_time(runs, lambda: [ragtrace.Partial.from_bytes(b) for b in encoded])
    print(f"bench: from_bytes of {many:,} partials ({sum(map(len, encoded)) / many / 1e3:.1f} KB each): {decoded * 1000:.1f} ms")

    if args.ray_files:
        ray_figures(args, args.ray_files)


def ray_figures(args: argparse.Namespace, files: list[str]) -> None:
    import ray

    import importlib.util

    # Loaded from its file without registering the module, so Ray ships its
    # functions to the workers by value, as when the example runs as a script.
    example = Path(__file__).resolve().parents[2] / "examples" / "ray_summary.py"
    spec = importlib.util.spec_from_file_location("ray_summary", example)
    assert spec is not None and spec.loader is not None
    ray_summary = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ray_summary)

    total = sum(os.path.getsize(f) for f in files) / 1e6
    ray.init(num_cpus=args.ray_cpus, include_dashboard=False, log_to_driver=False)
    try:
        start = time.perf_counter()
        ray_summary.summarize(files)
        on_ray = time.perf_counter() - start
    finally:
        ray.shutdown()
    start = time.perf_counter()
    ragtrace.merge(
        ragtrace.partial(open(f, "rb"), source=f) for f in files  # type: ignore[arg-type]
    ).summary()
    single = time.perf_counter() - start
    start = time.perf_counter()
    subprocess.run([args.cli, "analyze", "--summary", "--sweep", *files], capture_output=True, check=False)
    cli = time.perf_counter() - start
    print(
        f"bench: {total:,.0f} MB in {len(files)} files: Ray Data over {args.ray_cpus} local workers "
        f"{total / on_ray:,.0f} MB/s ({on_ray:.1f} s), one Python process {total / single:,.0f} MB/s, "
        f"CLI analyze --summary {total / cli:,.0f} MB/s (os.cpu_count() = {os.cpu_count()})"
    )


if __name__ == "__main__":
    main()
