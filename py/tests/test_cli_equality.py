"""Every function's result equals the CLI's JSON on the repository's fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import ragtrace

from conftest import Cli, TRACE_FIXTURES, fixture



@pytest.mark.parametrize("name", TRACE_FIXTURES)
def test_analyze_to_dict_is_the_cli_object(cli: Cli, name: str) -> None:
    path = fixture(name)
    assert ragtrace.analyze(path).to_dict() == cli.json("analyze", "--sweep", path)


@pytest.mark.parametrize("name", TRACE_FIXTURES)
def test_analyze_without_sweep_is_the_cli_object(cli: Cli, name: str) -> None:
    path = fixture(name)
    assert ragtrace.analyze(path, sweep=False).to_dict() == cli.json("analyze", path)


@pytest.mark.parametrize("name", TRACE_FIXTURES)
def test_parts_are_the_parts_of_the_cli_object(cli: Cli, name: str) -> None:
    path = fixture(name)
    whole = cli.json("analyze", "--sweep", path)
    analysis = ragtrace.analyze(Path(path))
    assert len(analysis) == len(whole["traces"])
    assert analysis.summary() == whole["summary"]
    assert analysis.config() == whole["config"]
    assert analysis.sweep() == whole["sweep"]
    assert analysis.warnings() == whole["warnings"]
    assert analysis.input_errors() == whole["inputErrors"]
    assert analysis.documents() == whole["documents"]
    assert analysis.traces() == whole["traces"]
    assert analysis.traces(1) == whole["traces"][1:]
    assert analysis.traces(-1, None) == whole["traces"][-1:]
    for i, trace in enumerate(whole["traces"]):
        assert analysis.trace(i) == trace
    assert analysis.trace(-1) == whole["traces"][-1]
    with pytest.raises(IndexError):
        analysis.trace(len(whole["traces"]))


def test_every_kind_of_source_reads_the_same(cli: Cli) -> None:
    path = fixture("lookup-result.jsonl")
    summary = cli.json("analyze", "--summary", "--sweep", path)["summary"]
    data = Path(path).read_bytes()
    with open(path, "rb") as f:
        from_file = ragtrace.analyze(f)
    assert from_file.to_dict()["documents"][0]["source"] == path
    for source in (data, bytearray(data), Path(path)):
        assert ragtrace.analyze(source).summary() == summary
    assert from_file.summary() == summary
    parsed = json.loads(Path(fixture("dense-trace.json")).read_text())
    assert ragtrace.analyze(parsed).summary() == cli.json("analyze", fixture("dense-trace.json"))["summary"]
    assert ragtrace.analyze([parsed, parsed]).summary()["traces"] == 2


def test_a_large_analysis_is_whole_until_freed_and_freed_apart(cli: Cli, tmp_path: Path) -> None:
    # 1,500 traces: past the size from which an analysis is freed on a thread of its own.
    line = Path(fixture("dense-trace.json")).read_text().replace("\n", " ")
    path = tmp_path / "large.jsonl"
    path.write_text((line + "\n") * 1500)
    summary = cli.json("analyze", "--summary", "--sweep", str(path))["summary"]
    analyses = [ragtrace.analyze(path) for _ in range(3)]
    rows = analyses[0].rows()
    del analyses[0]
    assert [a.summary() for a in analyses] == [summary, summary]
    assert len(rows) == 1500 and rows[-1]["line"] == 1500
    del analyses
    assert ragtrace.analyze(path).summary() == summary


def test_settings_are_the_cli_settings(cli: Cli) -> None:
    path = fixture("golden-runs.json")
    ours = ragtrace.analyze(path, {"maxL2Distance": 0.8, "return_n": 3}).to_dict()
    assert ours == cli.json("analyze", "--sweep", "--set", "maxL2Distance=0.8", "--set", "returnN=3", path)
    assert ours["config"]["maxL2Distance"] == 0.8


def test_rows_flatten_each_trace(cli: Cli) -> None:
    path = fixture("golden-runs.json")
    whole = cli.json("analyze", path)
    rows = ragtrace.analyze(path).rows()
    assert len(rows) == len(whole["traces"])
    for row, trace in zip(rows, whole["traces"]):
        assert row["name"] == trace["name"]
        assert row["requestId"] == trace["requestId"]
        assert row["mode"] == trace["mode"]
        assert row["relevanceLevel"] == trace["relevanceLevel"]
        assert row["recordedRelevanceLevel"] == trace["recordedRelevanceLevel"]
        assert row["topQuality"] == trace["topQuality"]
        assert row["accepted"] == trace["stages"]["accepted"]
        assert row["candidates"] == trace["stages"]["candidates"]
        assert row["lowQuality"] == trace["lowQuality"]
        assert row["levelDiffers"] == trace["levelDiffers"]
        assert row["line"] == trace["line"]
        assert all(not isinstance(v, (dict, list)) for v in row.values())


def test_evaluate_is_report_json(cli: Cli, tmp_path: Path) -> None:
    for cases, runs in (("golden-cases.json", "golden-runs.json"), ("golden-cases-sample.json", "golden-runs.json")):
        cli.run("eval", "--cases", fixture(cases), "--out-dir", str(tmp_path), fixture(runs))
        expected = json.loads((tmp_path / "report.json").read_text())
        assert ragtrace.evaluate(fixture(cases), fixture(runs)) == expected


def test_evaluate_with_settings(cli: Cli, tmp_path: Path) -> None:
    cli.run("eval", "--cases", fixture("golden-cases.json"), "--set", "returnN=2", "--out-dir", str(tmp_path), fixture("golden-runs.json"))
    expected = json.loads((tmp_path / "report.json").read_text())
    assert ragtrace.evaluate(fixture("golden-cases.json"), fixture("golden-runs.json"), {"returnN": 2}) == expected


def test_compare_many_is_the_many_run_compare_json(cli: Cli, tmp_path: Path) -> None:
    a, b, cases = fixture("compare-run-a.json"), fixture("compare-run-b.json"), fixture("compare-cases.json")
    runs = {"before": a, "after": b, "again": a}
    cli.run(
        "compare",
        *(arg for name, path in runs.items() for arg in ("--run", f"{name}={path}")),
        "--cases",
        cases,
        "--baseline",
        "after",
        "--out-dir",
        str(tmp_path),
    )
    written = json.loads((tmp_path / "compare.json").read_text())
    assert ragtrace.compare_many(runs, cases, baseline="after") == written
    assert ragtrace.compare_many(list(runs.items()), cases, baseline="after") == written
    assert written["runs"] == ["before", "after", "again"]
    # A run and itself: every case ties, p is 1.
    hit = written["metrics"][0]
    assert hit["tukey"]["p"][0][2] == 1.0 and hit["wins"][0][2] == 0


def test_compare_is_compare_json(cli: Cli, tmp_path: Path) -> None:
    a, b, cases = fixture("compare-run-a.json"), fixture("compare-run-b.json"), fixture("compare-cases.json")
    cli.run("compare", "--a", a, "--b", b, "--cases", cases, "--out-dir", str(tmp_path))
    assert ragtrace.compare(a, b, cases) == json.loads((tmp_path / "compare.json").read_text())
    cli.run("compare", "--a", a, "--b", b, "--rbo-p", "0.5", "--out-dir", str(tmp_path))
    assert ragtrace.compare(a, b, rbo_p=0.5) == json.loads((tmp_path / "compare.json").read_text())


def test_calibrate_is_calibration_json(cli: Cli, tmp_path: Path) -> None:
    cases, traces = fixture("calibration/cases.json"), fixture("calibration/traces.json")
    cli.run("calibrate", "--cases", cases, "--out-dir", str(tmp_path), traces)
    assert ragtrace.calibrate(cases, traces) == json.loads((tmp_path / "calibration.json").read_text())


def test_default_config_is_the_cli_default(cli: Cli) -> None:
    assert ragtrace.default_config() == cli.json("analyze", fixture("dense-trace.json"))["config"]


def test_single_candidate_functions() -> None:
    assert ragtrace.canonical_label("Dense") == "dense"
    assert ragtrace.canonical_label("hybrid") == "hybrid"
    assert ragtrace.canonical_label("bm25-only") is None
    # Contract section 3.2: dense quality is 1 - distance / maxL2Distance, clamped.
    assert ragtrace.quality_score("dense", 0.3, 1, 5) == pytest.approx(1 - 0.3 / ragtrace.default_config()["maxL2Distance"])
    assert ragtrace.quality_score("dense", 0.4, 1, 5, {"maxL2Distance": 0.8}) == pytest.approx(0.5)
    assert ragtrace.quality_score("unknown-label", 0.3, 1, 5) == 0.0
    with pytest.raises(ValueError, match="rank must be an integer >= 1, got 0"):
        ragtrace.quality_score("dense", 0.3, 0, 5)
