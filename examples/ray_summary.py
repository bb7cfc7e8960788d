"""The summary of JSON Lines trace files too large for one machine, on Ray Data.

Each block of lines becomes a ragtrace partial on whichever worker holds it; the
partials (a few kilobytes each) are merged on the driver. The printed object is
the one `ragtrace analyze --summary --sweep FILE...` prints for the same files.

    python examples/ray_summary.py traces/*.jsonl
    python examples/ray_summary.py --config settings.json --num-cpus 4 part-*.jsonl

One block per file (`override_num_blocks` is the number of files), read in
order: that is what gives each partial its source and first line, so input
errors keep their places and the warnings' examples are the whole batch's. Keep
files under Ray's target block size (128 MiB by default): a larger file is cut
into blocks whose first lines are unknown here, and though every count stays
exact, its input errors' lines and its unnamed traces' positions are then those
of the block. `read_text` decodes each file as UTF-8 and splits lines as
`str.splitlines()` does, so a file with bytes that are not UTF-8 (which the CLI
reports line by line) or with U+2028 inside a line wants `read_binary_files`
and `ragtrace.partial(data.split(b"\\n"))` instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np
import ragtrace
import ray


def to_partial(batch: dict[str, np.ndarray], config: dict[str, Any] | None) -> dict[str, list[Any]]:
    """One block (one file, in order) as one encoded partial."""
    paths = batch["path"]
    source = str(paths[0]) if len(paths) else "input"
    part = ragtrace.partial(batch["text"], config, source=source, first_line=1)
    return {"partial": [part.to_bytes()]}


def summarize(paths: list[str], config: dict[str, Any] | None = None, *, sweep: bool = True) -> dict[str, Any]:
    """`ragtrace analyze --summary [--sweep]` of `paths`, computed on the Ray cluster."""
    lines = ray.data.read_text(
        paths, include_paths=True, drop_empty_lines=False, override_num_blocks=len(paths)
    )
    partials = lines.map_batches(to_partial, batch_size=None, fn_kwargs={"config": config})
    merged = ragtrace.merge(ragtrace.Partial.from_bytes(row["partial"]) for row in partials.iter_rows())
    return dict(merged.summary(sweep=sweep))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="JSON Lines files")
    parser.add_argument("--config", help="a JSON file of settings (contract section 2)")
    parser.add_argument("--num-cpus", type=int, help="start a local Ray instance with this many CPUs")
    parser.add_argument("--no-sweep", action="store_true", help="leave the threshold sweep out")
    args = parser.parse_args()
    config = json.loads(open(args.config, encoding="utf-8").read()) if args.config else None
    ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False)
    try:
        summary = summarize(args.paths, config, sweep=not args.no_sweep)
    finally:
        ray.shutdown()
    json.dump(summary, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
