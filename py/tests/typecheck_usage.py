"""A program against the stub (ragtrace/__init__.pyi), checked by mypy in
test_types.py as tsc checks the JS declarations. Not collected as tests."""

from __future__ import annotations

from pathlib import Path

import ragtrace

analysis: ragtrace.Analysis = ragtrace.analyze(Path("tests/fixtures/golden-runs.json"), {"maxL2Distance": 0.8})
count: int = len(analysis)
summary = analysis.summary()
precise: int = summary["levels"].get("PRECISE", 0)
dense_traces: int = summary["byMode"]["dense"]["traces"]
low: int = summary["lowQuality"]
first = analysis.trace(0)
level: ragtrace.Level = first["relevanceLevel"]
top: float | None = first["topQuality"]
for block in first["blocks"]:
    quality: float = block["qualityScore"]
    rank: int | None = block["acceptedRank"]
rows = analysis.rows()
accepted: int = rows[0]["accepted"]
whole = analysis.to_dict()
traces: list[ragtrace.TraceAnalysis] = whole["traces"]
errors = analysis.input_errors()
line: int | None = errors[0]["line"] if errors else None
sweep = analysis.sweep()
fraction: float = sweep[0]["fraction"]

with open("samples/lookup-result.jsonl", "rb") as f:
    from_file = ragtrace.analyze(f, sweep=False)
from_bytes = ragtrace.analyze(b'{"candidates": []}')
from_data = ragtrace.analyze({"traces": []})

report = ragtrace.evaluate("tests/fixtures/golden-cases.json", "tests/fixtures/golden-runs.json")
mrr: float = report["summary"]["meanReciprocalRank"]
case_level: ragtrace.GoldenLevel = report["cases"][0]["level"]

comparison = ragtrace.compare("a.json", "b.json", None, {"returnN": 3}, rbo_p=0.8)
pairs: int = comparison["runs"]["pairs"]
golden = comparison["golden"]
regressions: int = golden["regressions"] if golden is not None else 0

many = ragtrace.compare_many({"dense": "a.json", "hybrid": "b.json"}, "cases.json", baseline="dense")
letters: list[str] = many["metrics"][0]["letters"]
tukey = many["metrics"][0]["tukey"]
p_value: float = tukey["p"][0][1] if tukey is not None else 1.0
left_out: list[ragtrace.PartialCase] = many["partialCases"]
pairs_form = ragtrace.compare_many([("dense", "a.json"), ("hybrid", {"traces": []})], {"cases": []})

calibration = ragtrace.calibrate("cases.json", "traces.json")
auc: float | None = calibration["gate"]["all"]["auc"]

config: ragtrace.Config = ragtrace.default_config()
max_l2: float = config["maxL2Distance"]
label: ragtrace.CanonicalLabel | None = ragtrace.canonical_label("Dense")
score: float = ragtrace.quality_score("dense", 0.3, 1, 5, None, None)

try:
    ragtrace.analyze("x.json")
except ragtrace.InputError as err:
    where: tuple[str | None, int | None, int | None] = (err.source, err.line, err.column)
except ragtrace.ConfigError as err:
    key: str | None = err.key

shard_a = ragtrace.partial(["{}", b"{}"], {"returnN": 3}, source="traces.jsonl", first_line=1)
shard_b = ragtrace.partial(iter(["{}"]), source="traces.jsonl", first_line=3)
merged: ragtrace.Partial = ragtrace.merge([shard_a, shard_b])
view = merged.summary()
shard_traces: int = view["summary"]["traces"]
encoded: bytes = merged.to_bytes()
again: ragtrace.Partial = ragtrace.Partial.from_bytes(encoded)
n_traces: int = len(again)

matches_a = ragtrace.case_matches("cases.json", ["{}"], source="runs.jsonl")
matches_b = ragtrace.case_matches("cases.json", [b"{}"], source="runs.jsonl", first_line=2)
all_matches: ragtrace.CaseMatches = ragtrace.merge([matches_a, matches_b])
sharded_report = ragtrace.evaluate("cases.json", all_matches)
sharded_cases: int = sharded_report["summary"]["cases"]

explained = ragtrace.explain("traces.json", "cases.json", {"returnN": 3})
explained_level: ragtrace.Level = explained["traces"][0]["levelIf"][0]["level"]
fix: ragtrace.Settings = explained["cases"][0]["foundIf"][0]["set"]
dropped_cases: int = explained["summary"]["causes"]["dropped"]
