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

from conftest import ROOT, Cli

F = "tests/fixtures"
GOOD = '{"requestId":"r%d","mode":"dense","relevanceLevel":"PRECISE","candidates":[{"docId":"d%d","evidenceKey":"k%d","rank":1,"score":%s}]}'


def batch_lines() -> list[bytes]:
    """A JSON Lines batch with every kind of line: traces of both modes from the
    fixtures, bad JSON, bytes that are not UTF-8, blank lines, a wrong shape."""
    lines = [line for line in (ROOT / F / "lookup-result.jsonl").read_bytes().splitlines()]
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
