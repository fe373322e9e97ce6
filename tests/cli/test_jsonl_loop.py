"""The JSON Lines loop of ``thirteen judge`` and ``thirteen arrange`` under
hostile input: every line gets one JSON answer, valid UTF-8, and the lines
after a bad one still run. Run as real processes, with a C locale too."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli.jsonl import MAX_LINE_BYTES, encode, handle_lines, read_lines
from tests.rules.examples import EXAMPLE_IN

ROOT = Path(__file__).resolve().parents[2]

ROUND = EXAMPLE_IN  # docs/judge.md's first example
HAND = {
    "cards": ["As", "Ah", "Kd", "Kc", "Qs", "Js", "Ts", "9h", "8h", "7c", "5d", "4d", "2s"],
    "preset": "classic",
    "top": 1,
}


def _with_id(pid_json: str) -> bytes:
    """ROUND with player A's id replaced by raw JSON text ``pid_json``."""
    text = json.dumps(ROUND).replace('"id": "A"', f'"id": {pid_json}', 1)
    return text.encode("utf-8")


HOSTILE: list[tuple[bytes, str]] = [
    (b"[" * 1000 + b"]" * 1000, "nests arrays and objects more than 32 deep"),
    (b'{"preset": "classic", "players": ' + b"[" * 1000 + b"]" * 1000 + b"}", "32 deep"),
    (b'{"preset": "classic", "players": ' + b"9" * 5000 + b"}", "more than 20 digits"),
    (b'{"preset": "classic", "players": 1.' + b"5" * 5000 + b"}", "more than 20 digits"),
    (b"\xff\xfe not text", "not valid UTF-8 (the byte 0xff at position 1)"),
    (_with_id('"A\xff"').replace(b"\xc3\xbf", b"\xff"), "not valid UTF-8"),
    (b'{"preset": NaN}', "NaN is not a JSON number"),
    (b"x" * (MAX_LINE_BYTES + 10), "longer than 1,000,000 bytes"),
    (b'{"preset": "classic"} trailing', "not valid JSON (Extra data at column 23)"),
    (b"[1, 2]", "each line must be a JSON object"),
    (b'"just a string"', "each line must be a JSON object"),
]


def run(command: str, data: bytes, **env: str) -> tuple[int, list[dict[str, Any]], bytes]:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", command],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, **env},
        timeout=300,
        check=False,
    )
    lines = proc.stdout.decode("utf-8").splitlines()  # raises on invalid UTF-8
    return proc.returncode, [json.loads(line) for line in lines], proc.stderr


def test_judge_answers_every_hostile_line_and_goes_on() -> None:
    good = json.dumps(ROUND).encode()
    data = b"\n".join([good, *(raw for raw, _ in HOSTILE), b"", b"   ", good]) + b"\n"
    status, replies, stderr = run("judge", data, LC_ALL="C", PYTHONIOENCODING="")
    assert stderr == b""
    assert status == 2
    assert len(replies) == len(HOSTILE) + 2  # blank lines are skipped
    assert replies[0]["ok"] and replies[-1]["ok"] and replies[0] == replies[-1]
    for (_, words), reply in zip(HOSTILE, replies[1:-1], strict=True):
        assert reply["ok"] is False
        assert words in reply["error"], reply["error"]
        assert len(reply["error"]) <= 300


def test_a_lone_surrogate_id_comes_back_escaped_and_valid() -> None:
    status, (reply,), _ = run("judge", _with_id('"A\\udcff"') + b"\n")
    assert status == 0 and reply["ok"]
    assert [p["id"] for p in reply["players"]] == ["A\udcff", "B", "C"]


def test_an_overlong_value_is_cut_short_in_the_error() -> None:
    hand = dict(HAND, cards=["Z" * 100_000] + HAND["cards"][1:])
    out = io.StringIO()
    from bot.cli.judge import judge

    round_ = json.loads(json.dumps(ROUND))
    round_["players"][0]["head"][0] = "Z" * 100_000
    status = handle_lines([json.dumps(round_), json.dumps(hand)], judge, out)
    first, second = (json.loads(x) for x in out.getvalue().splitlines())
    assert status == 2
    assert (
        first["error"].startswith("player A: unknown card token 'ZZZ") and len(first["error"]) < 80
    )
    assert second["ok"] is False and len(second["error"]) <= 300


def test_arrange_answers_hostile_lines_and_goes_on() -> None:
    good = json.dumps(HAND).encode()
    data = b"\n".join([*(raw for raw, _ in HOSTILE[:7]), good]) + b"\n"
    status, replies, stderr = run("arrange", data, LC_ALL="C")
    # stderr: at most the note of the first pool's build (docs/judge.md)
    assert all(line.startswith(b"thirteen arrange: building ") for line in stderr.splitlines())
    assert status == 2
    assert [r["ok"] for r in replies] == [False] * 7 + [True]
    assert len(replies[-1]["suggestions"]) == 1


def test_long_lines_are_read_in_bounded_pieces() -> None:
    stream = io.BytesIO(b"a" * 50 + b"\n" + b"b" * 10 + b"\nlast")
    lines = list(read_lines(stream, limit=20))
    assert [type(x).__name__ for x in lines] == ["TooLongLine", "bytes", "bytes"]
    assert lines[1:] == [b"b" * 10 + b"\n", b"last"]


def test_output_is_always_utf8() -> None:
    assert encode({"ok": True, "id": "十三水"}) == '{"ok": true, "id": "十三水"}\n'.encode()
    assert encode({"ok": True, "id": "\udcff"}) == b'{"ok": true, "id": "\\udcff"}\n'


@pytest.mark.parametrize("command", ["judge", "arrange"])
def test_help_version_and_unknown_arguments(command: str) -> None:
    for args, status, words in (
        (["--help"], 0, f"usage: thirteen {command}"),
        (["--version"], 0, "thirteen "),
        (["--bogus"], 2, "unrecognized arguments: --bogus"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "bot", command, *args],
            stdin=subprocess.DEVNULL,  # --help must not wait for input
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            check=False,
        )
        assert proc.returncode == status
        assert words in proc.stdout + proc.stderr


@pytest.mark.parametrize(("raw", "words"), HOSTILE[:5])
def test_picture_answers_hostile_input_with_one_line(
    tmp_path: Path, raw: bytes, words: str
) -> None:
    out = tmp_path / "round.png"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "picture", "--out", str(out)],
        input=raw + b"\n",
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "LC_ALL": "C"},
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2 and not out.exists()
    err = proc.stderr.decode("utf-8")
    assert err.startswith("thirteen picture: ") and words in err
    assert len(err.strip().splitlines()) == 1
