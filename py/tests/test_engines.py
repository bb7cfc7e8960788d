"""The engine recipes: examples/ray_summary.py on a local Ray instance, and the
Dask recipe of docs/scale.md, each equal to the single-machine summary (the CLI's
`analyze --summary --sweep` of the same files, in name order)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, Iterable

import pytest
import ragtrace

from conftest import ROOT, SAMPLES, Cli

GOOD = '{"requestId":"r%d","mode":"%s","relevanceLevel":"RELEVANT","candidates":[{"docId":"d%d","evidenceKey":"k%d","rank":1,"score":%s}]}'


def trace_files(folder: Path) -> list[str]:
    """JSON Lines files with traces of both modes, a bad line and blank lines."""
    first = folder / "a.jsonl"
    first.write_bytes((SAMPLES / "lookup-result.jsonl").read_bytes())
    second = folder / "b.jsonl"
    lines = [GOOD % (i, "dense" if i % 3 else "hybrid", i % 5, i, 0.05 * (i % 11)) for i in range(40)]
    lines[7] = "{not json"
    lines[20] = ""
    second.write_text("\n".join(lines) + "\n")
    return sorted(str(p) for p in (first, second))


def load_example() -> Any:
    spec = importlib.util.spec_from_file_location("ray_summary", ROOT / "examples" / "ray_summary.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ray_example_equals_the_single_machine_summary(cli: Cli, tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    paths = trace_files(tmp_path)
    example = load_example()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        summary = example.summarize(paths)
        without_sweep = example.summarize(paths, {"maxL2Distance": 0.8}, sweep=False)
    finally:
        ray.shutdown()
    assert summary == cli.json("analyze", "--summary", "--sweep", *paths)
    assert without_sweep == cli.json("analyze", "--summary", "--set", "maxL2Distance=0.8", *paths)
    assert summary["inputErrors"][0]["line"] == 8


def dask_summary(paths: list[str]) -> dict[str, Any]:
    """The Dask recipe of docs/scale.md: a partition per file, a partial per
    partition, partials folded together."""
    import dask.bag as db

    def to_partial(rows: Iterable[tuple[str, str]]) -> list[ragtrace.Partial]:
        rows = list(rows)
        source = rows[0][1] if rows else "input"
        return [ragtrace.partial((line for line, _ in rows), source=source)]

    bag = db.read_text(paths, blocksize=None, include_path=True, errors="surrogateescape")
    merged = bag.map_partitions(to_partial).fold(lambda a, b: ragtrace.merge([a, b]))
    return dict(merged.compute(scheduler="processes", num_workers=2).summary())


def test_dask_recipe_equals_the_single_machine_summary(cli: Cli, tmp_path: Path) -> None:
    pytest.importorskip("dask.bag")
    paths = trace_files(tmp_path)
    # Dask reads text with surrogateescape, so a line that is not UTF-8 is kept exact.
    with open(paths[1], "ab") as f:
        f.write(b'{"requestId":"caf\xe9"}\n')
    assert dask_summary(paths) == cli.json("analyze", "--summary", "--sweep", *paths)
