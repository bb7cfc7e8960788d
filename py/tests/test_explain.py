"""`explain`: explain.json's object from the CLI's core call, and what its changes
say, checked by analysing under them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import ragtrace

from conftest import Cli, fixture

TRACES = fixture("explain-traces.json")
CASES = fixture("explain-cases.json")


def cli_explain(cli: Cli, out_dir: Path, *args: str) -> Any:
    done = cli.run("explain", "--out-dir", str(out_dir), *args)
    assert done.returncode == 0, done.stderr
    return json.loads((out_dir / "explain.json").read_text())


def test_explain_with_cases_is_explain_json(cli: Cli, tmp_path: Path) -> None:
    expected = cli_explain(cli, tmp_path, "--cases", CASES, TRACES)
    ours = ragtrace.explain(TRACES, CASES)
    assert ours == expected
    # The fixture has a case of every cause, so the comparison covers each shape.
    assert {case["cause"] for case in ours["cases"]} == {"no-trace", "not-retrieved", "dropped", "found"}
    assert ours["summary"]["changes"]


def test_explain_without_cases_under_a_setting_is_explain_json(cli: Cli, tmp_path: Path) -> None:
    expected = cli_explain(cli, tmp_path, "--set", "returnN=2", "--set", "maxL2Distance=0.9", TRACES)
    ours = ragtrace.explain(Path(TRACES), config={"return_n": 2, "maxL2Distance": 0.9})
    assert ours == expected
    assert ours["cases"] == []
    assert ours["summary"]["cases"] == 0
    assert ours["config"]["returnN"] == 2
    assert ours != ragtrace.explain(TRACES)


def test_every_kind_of_source_explains_the_same() -> None:
    expected = ragtrace.explain(TRACES, CASES)
    traces = json.loads(Path(TRACES).read_text())
    cases = json.loads(Path(CASES).read_text())
    assert ragtrace.explain(traces, cases) == expected
    assert ragtrace.explain(Path(TRACES).read_bytes(), Path(CASES).read_bytes(), None) == expected
    with open(TRACES, "rb") as f:
        assert ragtrace.explain(f, CASES) == expected


def test_a_candidates_accepting_change_accepts_it_when_analysed() -> None:
    # A `set` object is settings as `config` takes them: analysing under it must give
    # the status the explanation promises.
    explained = ragtrace.explain(TRACES)
    checked = 0
    for trace in explained["traces"]:
        for candidate in trace["candidates"]:
            for change in candidate["acceptedIf"]:
                analysed = ragtrace.analyze(TRACES, dict(change["set"]), sweep=False).trace(trace["index"])
                block = next(b for b in analysed["blocks"] if b["inputIndex"] == candidate["index"])
                assert block["status"] == "accepted", (candidate, change)
                checked += 1
    assert checked > 0


def test_a_bad_setting_raises_config_error(cli: Cli, tmp_path: Path) -> None:
    with pytest.raises(ragtrace.ConfigError) as raised:
        ragtrace.explain(TRACES, CASES, {"maxL2Distance": -1})
    assert raised.value.key == "maxL2Distance"
    # The CLI names the file the setting came from; the package names `config`.
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"maxL2Distance": -1}))
    from_file = cli.error("explain", "--config", str(config), "--out-dir", str(tmp_path), TRACES)
    assert str(raised.value) == "config: " + from_file.removeprefix(f"{config}: ")
    with pytest.raises(ragtrace.ConfigError) as unknown:
        ragtrace.explain(TRACES, config={"noSuchSetting": 1})
    assert unknown.value.key == "noSuchSetting"


def test_unreadable_input_and_bad_cases_raise_input_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_bytes(b'{"requestId": "r1", "candidates": [')
    with pytest.raises(ragtrace.InputError) as raised:
        ragtrace.explain(str(broken))
    assert raised.value.source == str(broken)
    with pytest.raises(ragtrace.InputError):
        ragtrace.explain(TRACES, {"cases": "none"})
