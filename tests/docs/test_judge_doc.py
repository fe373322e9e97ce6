"""Every example of docs/judge.md, run through the real commands.

A block fenced as ``json judge-input`` (or ``jsonl judge-input``) is sent to
``thirteen judge`` — a pretty-printed object as one line, a ``jsonl`` block
line by line — and the ``judge-output`` block after it must be exactly what
comes back. ``arrange-input`` / ``arrange-output`` likewise, except that the
suggestions (the solver's current best) are checked for shape and legality
rather than equality. All the examples of a command go through one process.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.rules import Arrangement, check_foul, make_rules, parse_cards

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "judge.md"
FENCE = re.compile(r"^```(\w+) (judge|arrange)-(input|output)\n(.*?)^```$", re.M | re.S)


def _values(kind: str, body: str) -> list[Any]:
    """The JSON values of a block: one pretty object, or one per line."""
    if kind == "json":
        return [json.loads(body)]
    return [json.loads(line) for line in body.splitlines() if line.strip()]


def _inputs(kind: str, body: str) -> list[str]:
    if kind == "json":
        return [json.dumps(json.loads(body), ensure_ascii=False)]
    return [line for line in body.splitlines() if line.strip()]


def examples(command: str) -> list[tuple[list[str], list[Any]]]:
    """(input lines, expected outputs) of each example of ``command``, in order."""
    blocks = [m.groups() for m in FENCE.finditer(DOC.read_text(encoding="utf-8"))]
    blocks = [(kind, part, body) for kind, cmd, part, body in blocks if cmd == command]
    out = []
    for (kind_in, part_in, body_in), (kind_out, part_out, body_out) in zip(
        blocks[::2], blocks[1::2], strict=True
    ):
        assert (part_in, part_out) == ("input", "output"), "an input block, then its output"
        inputs, expected = _inputs(kind_in, body_in), _values(kind_out, body_out)
        assert len(inputs) == len(expected), "one output per input line"
        out.append((inputs, expected))
    return out


def run(command: str, lines: list[str]) -> tuple[int, list[dict[str, Any]]]:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", command],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert proc.stderr == ""
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()]


def test_the_document_has_examples_of_both_commands() -> None:
    judge, arrange = examples("judge"), examples("arrange")
    assert len(judge) >= 6 and len(arrange) >= 3
    assert any(not out["ok"] for _, outs in judge for out in outs)  # the errors too


def test_every_judge_example_gives_exactly_its_output() -> None:
    cases = examples("judge")
    status, got = run("judge", [line for inputs, _ in cases for line in inputs])
    expected = [out for _, outs in cases for out in outs]
    assert status == 2  # the error examples are among them
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
    from bot.rules import evaluate_lane

    assert [evaluate_lane(lane, rules).category.slug for lane in lanes] == shown["lanes"]


@pytest.mark.slow
def test_every_arrange_example_matches_the_command() -> None:
    cases = examples("arrange")
    lines = [line for inputs, _ in cases for line in inputs]
    _, got = run("arrange", lines)
    expected = [out for _, outs in cases for out in outs]
    assert len(got) == len(expected)
    for line, want, have in zip(lines, expected, got, strict=True):
        if not want["ok"]:
            assert have == want
            continue
        assert have["ok"] and have["special"] == want["special"]
        assert len(have["suggestions"]) == len(want["suggestions"])
        asked = json.loads(line)
        for shown in want["suggestions"] + have["suggestions"]:
            assert set(shown) == {"head", "middle", "tail", "lanes", "score"}
            _check_suggestion(shown, asked["cards"], asked["preset"])
