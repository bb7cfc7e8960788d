"""Arize Phoenix's span records (contract section 11, last paragraph): the records a
real Phoenix returned for the spans of an OTLP fixture analyse as the CLI analyses
that OTLP file. Phoenix's transport rounds doubles to 10 decimals, so qualities agree
within 1e-9 and the rest exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import ragtrace

from conftest import Cli, fixture

# (Phoenix records, the OTLP spans of the same retrievals)
PAIRS = [
    ("otel/phoenix-spans.jsonl", "otel/llamaindex-cosine.jsonl"),
    ("otel/phoenix-reranker-spans.jsonl", "otel/reranker.jsonl"),
    ("otel/phoenix-empty-retrieval-spans.jsonl", "otel/empty-retrieval.jsonl"),
]


def records(name: str) -> list[dict[str, Any]]:
    """The records as Python holds them: one dict a line, loaded with json.loads."""
    return [json.loads(line) for line in Path(fixture(name)).read_text().splitlines() if line]


def seen(trace: dict[str, Any]) -> tuple[Any, ...]:
    """What a reader of one trace's result sees, rounding aside."""
    blocks = [(b["evidenceKey"], b["docId"], b["originalRank"], b["status"]) for b in trace["blocks"]]
    return (
        trace["name"],
        trace["requestId"],
        trace["query"],
        trace["caseId"],
        trace["mode"],
        trace["relevanceLevel"],
        trace["lowQuality"],
        blocks,
    )


def assert_same_traces(ours: dict[str, Any], cli: dict[str, Any]) -> None:
    assert len(ours["traces"]) == len(cli["traces"])
    by_request = {t["requestId"]: t for t in ours["traces"]}
    for expected in cli["traces"]:
        found = by_request[expected["requestId"]]
        assert seen(found) == seen(expected)
        for f, e in zip(found["blocks"], expected["blocks"]):
            assert f["qualityScore"] == pytest.approx(e["qualityScore"], abs=1e-9)
    assert ours["summary"]["levels"] == cli["summary"]["levels"]
    assert ours["documents"][0]["skippedSpans"] == cli["documents"][0]["skippedSpans"]


@pytest.mark.parametrize(("phoenix", "otlp"), PAIRS)
def test_phoenix_records_analyse_as_the_cli_analyses_the_otlp_spans(
    cli: Cli, phoenix: str, otlp: str
) -> None:
    expected = cli.json("analyze", fixture(otlp))
    # The OTLP file itself, through the package: the CLI's object exactly.
    assert ragtrace.analyze(fixture(otlp), sweep=False).to_dict() == expected
    # The Phoenix records as a list of dicts, and as the JSON Lines file of them.
    from_list = ragtrace.analyze(records(phoenix), sweep=False).to_dict()
    assert from_list["inputErrors"] == []
    assert_same_traces(from_list, expected)
    assert_same_traces(ragtrace.analyze(fixture(phoenix), sweep=False).to_dict(), expected)


def test_the_first_retrieval_reads_as_phoenix_wrote_it() -> None:
    # phoenix-spans.jsonl, VectorIndexRetriever.retrieve (context.span_id
    # 456d044bc1f49414): attributes.input.value, attributes.metadata.caseId, and the
    # first document of attributes.retrieval.documents (document.score as Phoenix
    # rounded it: 0.8799575718004368 in the OTLP file).
    trace = ragtrace.analyze(records("otel/phoenix-spans.jsonl")).trace(0)
    assert trace["requestId"] == "fe4f526311d5d724d5baa978983b6369/456d044bc1f49414"
    assert trace["query"] == "How hot should the water be for espresso?"
    assert trace["caseId"] == "espresso-temperature"
    first = trace["blocks"][0]
    assert (first["evidenceKey"], first["docId"], first["score"]) == (
        "espresso-guide#0",
        "espresso-guide.md",
        0.8799575718,
    )


def test_a_dataframe_to_dict_records_reads_as_its_json_lines(cli: Cli) -> None:
    # What `get_spans_dataframe().to_dict("records")` hands over: every column in
    # every row (NaN where a span has no such attribute) and timestamps as pandas'
    # Timestamp.
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(records("otel/phoenix-reranker-spans.jsonl"))
    frame["start_time"] = pd.to_datetime(frame["start_time"])
    frame["end_time"] = pd.to_datetime(frame["end_time"])
    rows = frame.to_dict("records")
    assert any(isinstance(v, float) and v != v for v in rows[0].values())
    assert isinstance(rows[0]["start_time"], pd.Timestamp)
    expected = cli.json("analyze", fixture("otel/reranker.jsonl"))
    assert_same_traces(ragtrace.analyze(rows, sweep=False).to_dict(), expected)
