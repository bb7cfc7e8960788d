"""Partials: any split of a batch into partials, merged in any order, is the whole;
they travel as bytes and pickles; the wrong ones are refused."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
import ragtrace
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Cli, ROOT, fixture

GOOD = '{"requestId":"r%d","mode":"dense","relevanceLevel":"PRECISE","candidates":[{"docId":"d%d","evidenceKey":"k%d","rank":1,"score":%s}]}'


def batch_lines() -> list[bytes]:
    """A JSON Lines batch with every kind of line: traces of both modes from the
    fixtures, bad JSON, bytes that are not UTF-8, blank lines, a wrong shape."""
    lines = [line for line in (ROOT / fixture("lookup-result.jsonl")).read_bytes().splitlines()]
    for i in range(12):
        lines.append((GOOD % (i, i % 4, i, 0.1 * (i % 9))).encode())
    lines += [b"{not json", b'{"requestId":"caf\xe9"}', b"", b"42", b"   "]
    random.Random(7).shuffle(lines)
    return lines


LINES = batch_lines()


def whole(path: Path) -> dict[str, object]:
    return dict(ragtrace.analyze(str(path)).to_dict())


@pytest.fixture(scope="module")
def batch_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("batch") / "batch.jsonl"
    path.write_bytes(b"\n".join(LINES) + b"\n")
    return path


def without_traces(analysis: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in analysis.items() if k != "traces"}


def test_one_partial_is_analyze_summary(cli: Cli, batch_file: Path) -> None:
    part = ragtrace.partial(LINES, source=str(batch_file))
    expected = cli.json("analyze", "--summary", "--sweep", str(batch_file))
    assert part.summary() == expected
    assert part.summary() == without_traces(whole(batch_file))
    assert part.summary(sweep=False) == cli.json("analyze", "--summary", str(batch_file))
    assert len(part) == expected["summary"]["traces"]


@settings(max_examples=60, deadline=None)
@given(
    cuts=st.lists(st.integers(min_value=0, max_value=len(LINES)), max_size=8),
    order=st.randoms(use_true_random=False),
    as_text=st.booleans(),
)
def test_any_split_merged_in_any_order_is_the_whole(
    batch_file: Path, cuts: list[int], order: random.Random, as_text: bool
) -> None:
    bounds = sorted({0, len(LINES), *cuts})
    parts = []
    for start, end in zip(bounds, bounds[1:]):
        shard = LINES[start:end]
        items = [line.decode("utf-8", "surrogateescape") for line in shard] if as_text and b"\xe9" not in b"".join(shard) else shard
        parts.append(ragtrace.partial(items, source=str(batch_file), first_line=start + 1))
    order.shuffle(parts)
    # Merged all at once, and pairwise in a random grouping.
    at_once = ragtrace.merge(parts)
    grouped = list(parts)
    while len(grouped) > 1:
        i = order.randrange(len(grouped) - 1)
        grouped[i : i + 2] = [ragtrace.merge(grouped[i : i + 2])]
    expected = without_traces(whole(batch_file))
    assert at_once.summary() == expected
    assert grouped[0].summary() == expected


def test_partials_travel_as_bytes_and_pickles(batch_file: Path) -> None:
    part = ragtrace.partial(LINES[:10], {"maxL2Distance": 0.8}, source="s.jsonl")
    encoded = part.to_bytes()
    assert isinstance(encoded, bytes)
    assert ragtrace.Partial.from_bytes(encoded).summary() == part.summary()
    assert ragtrace.Partial.from_bytes(bytearray(encoded)).summary() == part.summary()
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(part, protocol=protocol))
        assert isinstance(again, ragtrace.Partial)
        assert again.summary() == part.summary()
    rest = ragtrace.partial(LINES[10:], {"maxL2Distance": 0.8}, source="s.jsonl", first_line=11)
    assert pickle.loads(pickle.dumps(ragtrace.merge([rest, part]))).summary() == ragtrace.merge([part, rest]).summary()


def test_partials_of_another_config_are_refused() -> None:
    one = ragtrace.partial(LINES[:3], {"maxL2Distance": 0.8})
    another = ragtrace.partial(LINES[3:], {"maxL2Distance": 1.0}, first_line=4)
    with pytest.raises(ragtrace.ConfigError, match="maxL2Distance") as raised:
        ragtrace.merge([one, another])
    assert raised.value.key == "maxL2Distance"
    with pytest.raises(ValueError, match="no partial"):
        ragtrace.merge([])
    with pytest.raises(TypeError):
        ragtrace.merge([one, "not a partial"])  # type: ignore[list-item]


def test_bytes_of_another_version_or_corrupt_are_refused() -> None:
    encoded = ragtrace.partial(LINES[:3]).to_bytes()
    with pytest.raises(ValueError, match="not a ragtrace partial"):
        ragtrace.Partial.from_bytes(b"hello, world, this is not it")
    newer = bytearray(encoded)
    magic = b"ragtrace-partial"
    assert newer.startswith(magic)
    newer[len(magic) : len(magic) + 2] = (999).to_bytes(2, "little")
    with pytest.raises(ValueError, match="version 999"):
        ragtrace.Partial.from_bytes(bytes(newer))
    with pytest.raises(ValueError, match="corrupt"):
        ragtrace.Partial.from_bytes(encoded[: len(encoded) // 2])


def test_bad_lines_and_bad_arguments() -> None:
    part = ragtrace.partial([b"\xff\xfe", "{oops"], source="s.jsonl", first_line=41)
    errors = part.summary()["inputErrors"]
    assert [e["line"] for e in errors] == [41, 42]
    with pytest.raises(TypeError, match="iterable of lines"):
        ragtrace.partial("{}\n{}")
    with pytest.raises(TypeError, match="str or bytes"):
        ragtrace.partial([1, 2])  # type: ignore[list-item]
    with pytest.raises(ragtrace.ConfigError):
        ragtrace.partial([], {"returnN": -2})


def runs_as_json_lines(folder: Path) -> tuple[Path, list[bytes]]:
    """golden-runs.json's traces as JSON Lines, each twice (a case links to the
    first), with a bad line and a blank one among them."""
    import json

    traces = json.loads((ROOT / fixture("golden-runs.json")).read_text())["traces"]
    lines = [json.dumps(t, ensure_ascii=False).encode() for t in traces]
    lines = lines + [b"{oops", b""] + lines[::-1]
    path = folder / "runs.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path, lines


@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=40), max_size=6), order=st.randoms(use_true_random=False))
def test_sharded_golden_evaluation_is_the_whole(
    tmp_path_factory: pytest.TempPathFactory, cuts: list[int], order: random.Random
) -> None:
    path, lines = runs_as_json_lines(tmp_path_factory.mktemp("runs"))
    cases = fixture("golden-cases.json")
    bounds = sorted({0, len(lines), *(c for c in cuts if c < len(lines))})
    shards = [
        ragtrace.case_matches(cases, lines[start:end], source=str(path), first_line=start + 1)
        for start, end in zip(bounds, bounds[1:])
    ]
    order.shuffle(shards)
    shards = [pickle.loads(pickle.dumps(shard)) for shard in shards]
    merged = ragtrace.merge(shards)
    assert isinstance(merged, ragtrace.CaseMatches)
    assert ragtrace.evaluate(cases, merged) == ragtrace.evaluate(cases, str(path))


def test_sharded_golden_evaluation_is_the_cli_report(cli: Cli, tmp_path: Path) -> None:
    import json

    path, lines = runs_as_json_lines(tmp_path)
    cases = fixture("golden-cases.json")
    half = len(lines) // 2
    merged = ragtrace.merge(
        [
            ragtrace.case_matches(cases, lines[half:], {"returnN": 3}, source=str(path), first_line=half + 1),
            ragtrace.case_matches(cases, lines[:half], {"returnN": 3}, source=str(path)),
        ]
    )
    cli.run("eval", "--cases", cases, "--set", "returnN=3", "--out-dir", str(tmp_path), str(path))
    assert ragtrace.evaluate(cases, merged) == json.loads((tmp_path / "report.json").read_text())
    with pytest.raises(ValueError, match="no config"):
        ragtrace.evaluate(cases, merged, {"returnN": 3})
    other_cases = fixture("golden-cases-sample.json")
    with pytest.raises(ValueError, match="different golden cases"):
        ragtrace.evaluate(other_cases, merged)
    with pytest.raises(ValueError, match="different golden cases"):
        ragtrace.merge([merged, ragtrace.case_matches(other_cases, lines[:2], {"returnN": 3})])
    with pytest.raises(TypeError, match="not a mix"):
        ragtrace.merge([merged, ragtrace.partial(lines[:2])])  # type: ignore[list-item]
