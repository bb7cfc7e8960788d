"""The stub against real use (mypy over typecheck_usage.py), and the stub's
TypedDicts against real results: every key the package returns is declared."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import ragtrace

from conftest import ROOT, fixture

STUB = Path(ragtrace.__file__).with_name("__init__.pyi")


def test_usage_file_type_checks() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(Path(__file__).with_name("typecheck_usage.py"))],
        cwd=ROOT / "py",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_checker_rejects_a_wrong_use(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.py"
    wrong.write_text('import ragtrace\nx: str = ragtrace.analyze("f").summary()["traces"]\n')
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(wrong)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and "Incompatible types" in done.stdout, done.stdout


def declared() -> dict[str, tuple[set[str], set[str]]]:
    """Each TypedDict of the stub: (all keys, required keys), bases included."""
    tree = ast.parse(STUB.read_text())
    classes: dict[str, tuple[set[str], set[str], list[str]]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            keys, required = set(), set()
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    keys.add(item.target.id)
                    if "NotRequired" not in ast.unparse(item.annotation):
                        required.add(item.target.id)
            classes[node.name] = (keys, required, [ast.unparse(b) for b in node.bases])
    out = {}
    for name, (keys, required, bases) in classes.items():
        for base in bases:
            if base in classes:
                keys = keys | classes[base][0]
                required = required | classes[base][1]
        out[name] = (keys, required)
    return out


def check(name: str, value: dict[str, Any], types: dict[str, tuple[set[str], set[str]]]) -> None:
    keys, required = types[name]
    assert set(value) <= keys, f"{name}: undeclared {set(value) - keys}"
    assert required <= set(value), f"{name}: missing {required - set(value)}"


@pytest.mark.parametrize("name", ["golden-runs.json", "lookup-result.jsonl", "hybrid-legacy-trace.json"])
def test_results_have_the_declared_keys(name: str) -> None:
    types = declared()
    analysis = ragtrace.analyze(fixture(name))
    whole = analysis.to_dict()
    check("AnalysisObject", dict(whole), types)
    check("Summary", dict(whole["summary"]), types)
    check("ModeSummary", dict(whole["summary"]["byMode"]["dense"]), types)
    check("Config", dict(whole["config"]), types)
    for trace in whole["traces"]:
        check("TraceAnalysis", dict(trace), types)
        check("Stages", dict(trace["stages"]), types)
        for block in trace["blocks"]:
            check("Block", dict(block), types)
        for diagnostic in trace["diagnostics"]:
            check("Diagnostic", dict(diagnostic), types)
    for warning in whole["warnings"]:
        check("BatchWarning", dict(warning), types)
    for point in whole["sweep"]:
        check("SweepPoint", dict(point), types)
    for row in analysis.rows():
        check("Row", dict(row), types)
    report = ragtrace.evaluate(fixture("golden-cases.json"), fixture("golden-runs.json"))
    check("GoldenReport", dict(report), types)
    for case in report["cases"]:
        check("CaseReport", dict(case), types)
    comparison = ragtrace.compare(fixture("compare-run-a.json"), fixture("compare-run-b.json"), fixture("compare-cases.json"))
    check("CompareReport", dict(comparison), types)
    for pair in comparison["pairs"]:
        check("PairDetail", dict(pair), types)
    assert comparison["golden"] is not None
    check("GoldenComparison", dict(comparison["golden"]), types)
    run_a = json.loads(Path(fixture("compare-run-a.json")).read_text())
    first_only = {"traces": run_a["traces"][:1]}
    many = ragtrace.compare_many(
        {"a": fixture("compare-run-a.json"), "b": fixture("compare-run-b.json"), "first": first_only},
        fixture("compare-cases.json"),
    )
    check("ManyRunComparison", dict(many), types)
    check("ManyRunCases", dict(many["cases"]), types)
    assert many["partialCases"], "the run of the first trace alone answers fewer cases"
    for partial_case in many["partialCases"]:
        check("PartialCase", dict(partial_case), types)
    for metric in many["metrics"]:
        check("ManyRunMetric", dict(metric), types)
        assert metric["tukey"] is not None
        check("TukeyHsd", dict(metric["tukey"]), types)
    calibration = ragtrace.calibrate(fixture("calibration/cases.json"), fixture("calibration/traces.json"))
    check("Calibration", dict(calibration), types)
    check("GateCurve", dict(calibration["gate"]["all"]), types)


def test_explain_results_have_the_declared_keys() -> None:
    types = declared()
    explained = ragtrace.explain(fixture("explain-traces.json"), fixture("explain-cases.json"))
    check("Explanation", dict(explained), types)
    check("ExplainSummary", dict(explained["summary"]), types)
    # CauseCounts is declared in the functional form (its keys have hyphens).
    assert set(explained["summary"]["causes"]) == {"dropped", "found", "no-trace", "not-retrieved"}
    for change in explained["summary"]["changes"]:
        check("ChangeImpact", dict(change), types)
    settings = types["Settings"][0]
    sets = []
    for trace in explained["traces"]:
        check("TraceExplanation", dict(trace), types)
        for level_if in trace["levelIf"]:
            check("LevelIf", dict(level_if), types)
            sets.append(level_if["set"])
        for low_if in trace["lowQualityIf"]:
            check("LowQualityIf", dict(low_if), types)
            sets.append(low_if["set"])
        for candidate in trace["candidates"]:
            check("CandidateExplanation", dict(candidate), types)
            for set_if in candidate["acceptedIf"] + candidate["droppedIf"]:
                check("SetIf", dict(set_if), types)
                sets.append(set_if["set"])
    for case in explained["cases"]:
        check("CaseExplanation", dict(case), types)
        for found_if in case["foundIf"]:
            check("FoundIf", dict(found_if), types)
            sets.append(found_if["set"])
    assert sets
    for change in sets:
        assert change and set(change) <= settings, change
