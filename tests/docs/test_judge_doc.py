"""Every example of docs/judge.md, run through the real commands.

A block fenced as ``json judge-input`` (or ``jsonl judge-input``) is sent to
``thirteen judge`` — a pretty-printed object as one line, a ``jsonl`` block
line by line — and the ``judge-output`` block after it must be exactly what
comes back. ``arrange-input`` / ``arrange-output`` likewise, run with the
solver's default settings (what a user gets); an output block marked
``approx=<key>`` holds numbers that change with the solver's model: each
value of that key may differ from the one shown by up to ``APPROX``. All the
examples of a command go through one process.

The arrange examples need the default opponent pools of two deck settings:
built the first time (about a minute of CPU), then kept in the user's solver
cache, as ``thirteen arrange`` keeps them. The line ``thirteen arrange``
writes on stderr while it builds one is checked against the one the document
shows.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.rules import Arrangement, check_foul, evaluate_lane, make_rules, parse_cards
from tests.docs.judge_examples import DOC, ROOT, examples

APPROX = 0.5
# What `thirteen arrange` says on stderr while it builds a deck setting's pool.
BUILDING = re.compile(
    r"thirteen arrange: building the solver's opponent pool for [\w ,]+ \(the first time "
    r"this deck setting is used: about half a minute; (then kept in .+|"
    r"THIRTEEN_SOLVER_CACHE=off: not kept)\) \.\.\. done in \d+ s"
)


def same(want: Any, have: Any, approx: set[str], where: str = "") -> None:
    """``have`` is ``want``, keys in the same order, except that the numbers
    under a key of ``approx`` may differ by up to ``APPROX``."""
    if isinstance(want, dict):
        assert isinstance(have, dict) and list(have) == list(want), (where, have)
        for key in want:
            if key in approx and isinstance(want[key], int | float):
                assert isinstance(have[key], int | float), (where, key, have[key])
                assert abs(have[key] - want[key]) <= APPROX, (f"{where}.{key}", have[key])
            else:
                same(want[key], have[key], approx, f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(have, list) and len(have) == len(want), (where, have)
        for n, (w, h) in enumerate(zip(want, have, strict=True)):
            same(w, h, approx, f"{where}[{n}]")
    else:
        assert have == want, (where, have)


def run(
    command: str, lines: list[str], env: dict[str, str] | None = None
) -> tuple[int, list[dict[str, Any]], list[str]]:
    """The exit status, the output objects and the lines on stderr."""
    proc = subprocess.run(
        [sys.executable, "-m", "bot", command],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
        timeout=600,  # a hang guard: a cold cache builds two deck settings
        check=False,
    )
    return (
        proc.returncode,
        [json.loads(line) for line in proc.stdout.splitlines()],
        proc.stderr.splitlines(),
    )


def default_solver_env() -> dict[str, str]:
    """The environment of a user who set none of the solver's knobs (the
    tests' own small pools and ``THIRTEEN_SOLVER_CACHE=off`` left out)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("THIRTEEN_SOLVER_")}


def test_the_document_has_examples_of_both_commands() -> None:
    judge, arrange = examples("judge"), examples("arrange")
    assert len(judge) >= 6 and len(arrange) >= 3
    assert any(not out["ok"] for _, outs, _ in judge for out in outs)  # the errors too
    assert all(approx <= {"score"} for _, _, approx in judge + arrange)


def test_every_judge_example_gives_exactly_its_output() -> None:
    cases = examples("judge")
    status, got, stderr = run("judge", [line for inputs, _, _ in cases for line in inputs])
    expected = [out for _, outs, _ in cases for out in outs]
    assert status == 2  # the error examples are among them
    assert stderr == []
    assert len(got) == len(expected)
    for want, have in zip(expected, got, strict=True):
        assert have == want
        assert list(have) == list(want)  # the documented key order


def _check_suggestion(shown: dict[str, Any], cards: list[str], preset: str) -> None:
    lanes = [parse_cards(shown[k]) for k in ("head", "middle", "tail")]
    assert sorted(shown["head"] + shown["middle"] + shown["tail"]) == sorted(cards)
    arrangement = Arrangement.of(*lanes)
    rules = make_rules(preset, 4)
    assert check_foul(arrangement, rules) is None
    assert [evaluate_lane(lane, rules).category.slug for lane in lanes] == shown["lanes"]


@pytest.mark.slow
def test_every_arrange_example_is_what_the_command_gives() -> None:
    cases = examples("arrange")
    lines = [line for inputs, _, _ in cases for line in inputs]
    _, got, stderr = run("arrange", lines, default_solver_env())
    assert all(BUILDING.fullmatch(line) for line in stderr), stderr  # only the build notes
    expected = [(out, approx) for _, outs, approx in cases for out in outs]
    assert len(got) == len(expected)
    for line, (want, approx), have in zip(lines, expected, got, strict=True):
        if want["ok"]:
            asked = json.loads(line)
            for shown in want["suggestions"]:
                _check_suggestion(shown, asked["cards"], asked["preset"])
        same(want, have, approx, line[:40])


def test_the_documented_build_note_is_the_one_the_command_writes(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = [line for line in text.splitlines() if line.startswith("thirteen arrange: ")]
    assert len(documented) == 1 and BUILDING.fullmatch(documented[0]), documented
    # Small pools (the tests' own), kept in a fresh folder: the first line of
    # each deck setting builds its pool and says so once; a later run is silent.
    hand = '{"cards": ["As","Ah","Kd","Kc","Qs","Js","Ts","9h","8h","7c","5d","4d","2s"], '
    lines = [hand + '"preset": "classic"}', hand + '"preset": "classic", "players": 3}']
    env = {**os.environ, "THIRTEEN_SOLVER_CACHE": str(tmp_path / "cache")}
    status, got, stderr = run("arrange", lines, env)
    assert status == 0 and [out["ok"] for out in got] == [True, True]
    assert len(stderr) == 1 and BUILDING.fullmatch(stderr[0]), stderr
    assert "for classic (" in stderr[0] and str(tmp_path / "cache") in stderr[0]
    again = run("arrange", lines[:1], env)
    assert again[0] == 0 and again[2] == []
