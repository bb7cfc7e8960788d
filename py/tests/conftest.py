"""Shared fixtures: the repository's trace fixtures and the CLI that the package's
results are compared with (built by cargo unless RAGTRACE_CLI names a binary)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
SAMPLES = ROOT / "samples"


def fixture(name: str) -> str:
    """A fixture's path from the repository root: the page's samples first, then
    the test fixtures (as core/tests/common does)."""
    if (SAMPLES / name).is_file():
        return f"samples/{name}"
    return f"tests/fixtures/{name}"
FUZZ_SEEDS = ROOT / "fuzz" / "seeds"

# Every fixture that holds traces (the others are golden cases).
TRACE_FIXTURES = [
    "dense-trace.json",
    "hybrid-legacy-trace.json",
    "lookup-result.jsonl",
    "golden-runs.json",
    "compare-run-a.json",
    "compare-run-b.json",
    "calibration/traces.json",
]


def _cli_path() -> Path:
    named = os.environ.get("RAGTRACE_CLI")
    if named:
        return Path(named)
    profile = "python-test"
    subprocess.run(
        ["cargo", "build", "--quiet", "-p", "ragtrace-core", "--features", "cli", "--profile", profile],
        cwd=ROOT,
        check=True,
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / profile / "ragtrace"


class Cli:
    """The `ragtrace` binary, run from the repository's root (so fixture paths
    given relative to it name their sources as the package's calls do)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.path), *args], cwd=ROOT, capture_output=True, text=True, check=False
        )

    def json(self, *args: str) -> Any:
        done = self.run(*args)
        assert done.stdout, done.stderr
        return json.loads(done.stdout)

    def error(self, *args: str) -> str:
        """The first message the CLI prints on standard error, without its prefix."""
        done = self.run(*args)
        assert done.returncode != 0, done.stdout
        first = done.stderr.splitlines()[0]
        assert first.startswith("ragtrace: "), done.stderr
        return first[len("ragtrace: ") :]


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(_cli_path())


@pytest.fixture(autouse=True)
def _from_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # Relative paths name sources the way the CLI's arguments do.
    monkeypatch.chdir(ROOT)
