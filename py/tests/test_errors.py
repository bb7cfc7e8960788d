"""Bad input: what the CLI refuses with a located error, the package refuses the
same way (same message); what the CLI reads in part, the package reads in part;
nothing panics across the boundary."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import ragtrace

from conftest import Cli, FUZZ_SEEDS, fixture

GOOD = b'{"requestId":"r1","mode":"dense","candidates":[{"docId":"d","evidenceKey":"k","rank":1,"score":0.2}]}'


def write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_non_utf8_lines_are_input_errors_not_exceptions(cli: Cli, tmp_path: Path) -> None:
    path = write(tmp_path, "mixed.jsonl", GOOD + b"\n" + b'{"requestId":"\xff\xfe"}\n' + GOOD + b"\n")
    analysis = ragtrace.analyze(path)
    expected = cli.json("analyze", "--summary", "--sweep", path)
    assert len(analysis) == 2
    assert analysis.input_errors() == expected["inputErrors"]
    assert analysis.input_errors()[0]["line"] == 2
    assert analysis.summary() == expected["summary"]


def test_a_bad_json_line_is_an_input_error(cli: Cli, tmp_path: Path) -> None:
    path = write(tmp_path, "bad.jsonl", GOOD + b"\n{not json\n" + GOOD + b"\n")
    assert ragtrace.analyze(path).input_errors() == cli.json("analyze", "--summary", path)["inputErrors"]


@pytest.mark.parametrize(
    "name, data",
    [
        ("truncated.json", b'{"requestId": "r1", "candidates": [{"docId": "d", "rank": 1'),
        ("number.json", b"42"),
        ("string.json", b'"a trace?"'),
        ("text.json", b"this is not json\n"),
        ("empty.json", b"  \n"),
        ("latin1.json", b'{"requestId": "caf\xe9"}'),
    ],
)
def test_unreadable_documents_raise_the_cli_message(cli: Cli, tmp_path: Path, name: str, data: bytes) -> None:
    path = write(tmp_path, name, data)
    message = cli.error("analyze", path)
    with pytest.raises(ragtrace.InputError) as raised:
        ragtrace.analyze(path)
    assert str(raised.value) == message
    assert isinstance(raised.value, ValueError)
    assert raised.value.source == path
    assert message.startswith(f"{path}:{raised.value.line}:{raised.value.column}" if raised.value.column else path)


def test_unreadable_bytes_are_located_in_input() -> None:
    with pytest.raises(ragtrace.InputError) as raised:
        ragtrace.analyze(b'{"requestId": ')
    assert raised.value.source == "input"
    assert raised.value.line == 1
    assert str(raised.value).startswith("input:1:")


def test_wrong_top_level_shapes_of_parsed_data() -> None:
    with pytest.raises(ragtrace.InputError):
        ragtrace.analyze({"traces": 3})
    with pytest.raises(TypeError):
        ragtrace.analyze(3.5)  # type: ignore[arg-type]


def test_missing_files_and_text_files() -> None:
    with pytest.raises(FileNotFoundError, match="no-such-file.json"):
        ragtrace.analyze("no-such-file.json")
    with pytest.raises(TypeError, match="binary file object"):
        ragtrace.analyze(io.StringIO(GOOD.decode()))  # type: ignore[arg-type]


def test_an_exception_raised_by_a_file_object_passes_through() -> None:
    class Failing(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError, match="disk on fire"):
        ragtrace.analyze(Failing())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "settings, cli_set, key",
    [
        ({"noSuchSetting": 1}, "noSuchSetting=1", "noSuchSetting"),
        ({"maxL2Distance": -1}, "maxL2Distance=-1", "maxL2Distance"),
        ({"returnN": 0}, "returnN=0", "returnN"),
        ({"maxL2Distance": "far"}, None, "maxL2Distance"),
    ],
)
def test_bad_settings_raise_config_error_naming_the_key(
    cli: Cli, tmp_path: Path, settings: dict[str, object], cli_set: str | None, key: str
) -> None:
    config = write(tmp_path, "config.json", json.dumps(settings).encode())
    with pytest.raises(ragtrace.ConfigError) as raised:
        ragtrace.analyze(fixture("dense-trace.json"), settings)
    assert isinstance(raised.value, ValueError)
    assert raised.value.key == key
    # The CLI names the file the setting came from; the package names `config`.
    from_file = cli.error("analyze", "--config", config, fixture("dense-trace.json"))
    assert str(raised.value) == "config: " + from_file.removeprefix(f"{config}: ")
    if cli_set is not None:
        assert key in cli.error("analyze", "--set", cli_set, fixture("dense-trace.json"))
    for call in (
        lambda: ragtrace.evaluate(fixture("golden-cases.json"), fixture("golden-runs.json"), settings),
        lambda: ragtrace.quality_score("dense", 0.1, 1, 1, settings),
    ):
        with pytest.raises(ragtrace.ConfigError):
            call()


def test_bad_cases_raise_input_error(cli: Cli, tmp_path: Path) -> None:
    cases = write(tmp_path, "cases.json", b'{"cases": [{"query": "no id"}, 3]}')
    with pytest.raises(ragtrace.InputError) as raised:
        ragtrace.evaluate(cases, fixture("golden-runs.json"))
    assert raised.value.source == cases
    assert str(raised.value).split("; ")[0] == cli.error(
        "eval", "--cases", cases, "--out-dir", str(tmp_path), fixture("golden-runs.json")
    )
    with pytest.raises(ragtrace.InputError):
        ragtrace.evaluate({"cases": "none"}, fixture("golden-runs.json"))


def test_bad_runs_of_compare_many_raise_located_input_errors() -> None:
    a, cases = fixture("compare-run-a.json"), fixture("compare-cases.json")
    with pytest.raises(ragtrace.InputError, match="only one run given") as raised:
        ragtrace.compare_many({"dense": a}, cases)
    assert raised.value.source == "runs" and raised.value.path == "/runs"
    with pytest.raises(ragtrace.InputError, match='the name "dense" is given to runs 1 and 2') as raised:
        ragtrace.compare_many([("dense", a), ("dense", a)], cases)
    assert raised.value.path == "/runs/1/name"
    with pytest.raises(ragtrace.InputError, match='run "empty" has no trace') as raised:
        ragtrace.compare_many({"dense": a, "empty": {"traces": []}}, cases)
    assert raised.value.path == "/runs/1"
    with pytest.raises(ragtrace.InputError, match='the baseline "other" is not one of the runs'):
        ragtrace.compare_many({"dense": a, "hybrid": a}, cases, baseline="other")
    with pytest.raises(TypeError, match="runs must be a dict"):
        ragtrace.compare_many([a, a], cases)  # type: ignore[list-item]


def test_bad_rbo_p() -> None:
    with pytest.raises(ValueError, match="rbo_p"):
        ragtrace.compare(fixture("compare-run-a.json"), fixture("compare-run-b.json"), rbo_p=1.5)


HOSTILE = sorted((FUZZ_SEEDS / "documents").iterdir()) + sorted((FUZZ_SEEDS / "structured").iterdir())


@pytest.mark.parametrize("seed", HOSTILE, ids=lambda p: p.name)
def test_hostile_fuzz_seeds_cross_the_boundary(cli: Cli, seed: Path) -> None:
    data = seed.read_bytes()
    done = cli.run("analyze", "--sweep", str(seed))
    try:
        ours = ragtrace.analyze(str(seed)).to_dict()
    except ragtrace.InputError as err:
        assert done.returncode != 0
        assert done.stderr.splitlines()[0] == f"ragtrace: {err}"
    else:
        assert ours == json.loads(done.stdout)
    # The same bytes given whole, and every prefix of them cut short, never abort.
    for end in range(0, len(data), max(1, len(data) // 64)):
        try:
            ragtrace.analyze(data[:end]).to_dict()
        except ragtrace.InputError:
            pass


def test_input_errors_are_bounded_as_the_cli_bounds_them(cli: Cli, tmp_path: Path) -> None:
    # 1,500 lines `{}` (no candidates array), then 300 lines cut short, then one good
    # trace: lines 1-1,000 listed, 500 missing-candidates and 300 malformed-json counted.
    path = write(tmp_path, "many-bad.jsonl", b"{}\n" * 1500 + b'{"a":\n' * 300 + GOOD + b"\n")
    analysis = ragtrace.analyze(path)
    expected = cli.json("analyze", "--summary", "--sweep", path)
    assert len(analysis.input_errors()) == 1000
    assert analysis.input_errors()[999]["line"] == 1000
    assert analysis.input_errors_omitted() == {"malformed-json": 300, "missing-candidates": 500}
    assert analysis.input_errors() == expected["inputErrors"]
    assert analysis.to_dict()["inputErrorsOmitted"] == expected["inputErrorsOmitted"]
    assert analysis.documents()[0]["errors"] == 1800


def test_merged_partials_keep_the_bound_and_add_the_counts() -> None:
    # a.jsonl's 700 bad lines come first in batch order, then b.jsonl's 700: the merge
    # lists a's 700 and b's first 300, and counts b's other 400.
    a = ragtrace.partial([b"{}"] * 700, source="a.jsonl")
    b = ragtrace.partial([b'{"candidates": 3}'] * 700, source="b.jsonl")
    view = ragtrace.merge([b, a]).summary()
    assert len(view["inputErrors"]) == 1000
    assert view["inputErrors"][699]["source"] == "a.jsonl"
    assert view["inputErrors"][999]["line"] == 300
    assert view["inputErrorsOmitted"] == {"list-not-array": 400}
