"""``thirteen picture``: a judge line in, a PNG out; bad input is one line."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from bot.cli import picture as cli
from bot.pictures import draw_settlement, draw_showdown
from tests.rules.examples import EXAMPLE_IN

from .pixels import decode

LINE = EXAMPLE_IN  # the judge documentation's example round


def run(monkeypatch, capsys, text: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    rc = cli.main(list(args))
    return rc, capsys.readouterr().err


def test_a_judge_line_becomes_the_round_picture(tmp_path):
    out = tmp_path / "round.png"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "picture", "--out", str(out), "--language", "en"],
        input=json.dumps(LINE),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "" and proc.stderr == ""
    image = decode(out.read_bytes())
    show_w, show_h = draw_showdown.size(3)
    assert image.width == show_w and image.height > show_h + 300
    assert out.stat().st_size <= 200_000


def test_the_picture_is_the_judges_settlement():
    from bot.cli.judge import judge
    from bot.pictures import judged_pictures
    from bot.rules import make_rules

    hands = cli._hands(LINE)
    result = judge(LINE)
    show, settle = judged_pictures(hands, result, make_rules("classic", 3), "zh-Hans")
    assert [s.total for s in settle.seats] == [result["totals"][k] for k in "ABC"]
    assert show.seats[1].special is not None and show.seats[1].special_points == 36
    assert all(lane.face_up for seat in show.seats for lane in seat.lanes)
    assert draw_settlement.size(settle)[0] > 0


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ("", "exactly one judge line"),
        (json.dumps(LINE) + "\n" + json.dumps(LINE), "exactly one judge line"),
        (json.dumps({**LINE, "preset": "nope"}), "preset"),
        (json.dumps({**LINE, "players": LINE["players"][:1]}), "players"),
        (
            json.dumps(
                {
                    **LINE,
                    "players": [
                        {**LINE["players"][0], "head": ["Xx", "Ah", "Ad"]},
                        *LINE["players"][1:],
                    ],
                }
            ),
            "Xx",
        ),
        (
            json.dumps(
                {
                    **LINE,
                    "players": [
                        {**LINE["players"][0], "tail": ["3c", "3d", "4d", "6h", "8c"]},
                        *LINE["players"][1:],
                    ],
                }
            ),
            "player A",
        ),
    ],
)
def test_bad_input_is_one_clear_line_and_no_file(monkeypatch, capsys, tmp_path, text, words):
    out = tmp_path / "x.png"
    rc, err = run(monkeypatch, capsys, text, "--out", str(out))
    assert rc == 2
    assert err.count("\n") == 1 and err.startswith("thirteen picture: ") and words in err
    assert "Traceback" not in err
    assert not out.exists()


def test_an_unwritable_file_is_one_line(monkeypatch, capsys, tmp_path):
    rc, err = run(monkeypatch, capsys, json.dumps(LINE), "--out", str(tmp_path / "no" / "x.png"))
    assert rc == 2 and err.count("\n") == 1 and "cannot write" in err
