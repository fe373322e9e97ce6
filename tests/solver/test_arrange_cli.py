"""`python -m bot arrange`: JSON Lines in and out, per-line errors, exit status."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from bot.cli.arrange import run
from bot.rules import Arrangement, check_foul, make_rules, parse_cards

ROOT = Path(__file__).resolve().parents[2]
HAND = ["As", "Ah", "Ad", "Ks", "Kh", "Kd", "2c", "2d", "Qs", "Js", "Ts", "9s", "8s"]
DRAGON = ["2s", "3s", "4h", "5d", "6c", "7s", "8h", "9d", "Tc", "Jd", "Qh", "Kc", "Ac"]


def _run(*objs) -> tuple[int, list[dict]]:
    lines = [o if isinstance(o, str) else json.dumps(o) for o in objs]
    out = io.StringIO()
    code = run(lines, out)
    return code, [json.loads(x) for x in out.getvalue().splitlines()]


def test_output_shape_and_legal_suggestions() -> None:
    code, (reply,) = _run({"cards": HAND, "preset": "classic", "players": 4, "top": 3})
    assert code == 0
    assert set(reply) == {"ok", "special", "suggestions"} and reply["ok"] is True
    assert reply["special"] is None
    assert 1 <= len(reply["suggestions"]) <= 3
    rules = make_rules("classic", 4)
    for s in reply["suggestions"]:
        assert set(s) == {"head", "middle", "tail", "lanes", "score"}
        arr = Arrangement.of(
            parse_cards(s["head"]), parse_cards(s["middle"]), parse_cards(s["tail"])
        )
        assert check_foul(arr, rules) is None
        assert sorted(arr.cards) == sorted(parse_cards(HAND))
        assert len(s["lanes"]) == 3 and all(isinstance(x, str) for x in s["lanes"])
    assert reply["suggestions"][0]["lanes"] == ["three_of_a_kind", "full_house", "straight_flush"]
    scores = [s["score"] for s in reply["suggestions"]]
    assert scores == sorted(scores, reverse=True)


def test_special_and_top() -> None:
    code, (reply,) = _run({"cards": DRAGON, "preset": "classic", "players": 4, "top": 1})
    assert code == 0
    assert reply["special"] == {"name": "dragon", "points": 36}
    assert len(reply["suggestions"]) == 1


def test_sixteen_cards_keep_thirteen() -> None:
    cards = HAND + ["7h", "6h", "5c"]
    code, (reply,) = _run(
        {"cards": cards, "preset": "classic", "players": 3, "options": {"extra_three": True}}
    )
    assert code == 0
    for s in reply["suggestions"]:
        kept = s["head"] + s["middle"] + s["tail"]
        assert len(kept) == 13 and set(kept) <= set(cards)


def test_errors_are_per_line_and_exit_status_is_2() -> None:
    bad = [
        ({"cards": HAND[:12], "preset": "classic"}, "13 cards"),
        ({"cards": HAND[:12] + ["Zz"], "preset": "classic"}, "unknown card token"),
        ({"cards": HAND[:12] + ["As"], "preset": "classic"}, "As appears 2 times"),
        ({"cards": HAND[:12] + ["BJ"], "preset": "classic"}, "no jokers"),
        ({"cards": HAND, "preset": "classic", "players": 3, "options": {"banker": True}}, "banker"),
        ({"cards": HAND, "preset": "classic", "options": {"colour": 1}}, "unknown option"),
        ({"cards": HAND, "preset": "classic", "seat": 1}, "unknown field"),
        ({"cards": HAND}, "preset is required"),
        ({"preset": "classic"}, "cards is required"),
        (
            {"cards": "As Ah", "preset": "classic"},
            "cards must be a list of card tokens, not 'As Ah'",
        ),
        ({"cards": HAND, "preset": "poker"}, "unknown preset"),
        ({"cards": HAND, "preset": "classic", "top": 0}, "top must be"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
    ]
    code, replies = _run(*(b for b, _ in bad), {"cards": HAND, "preset": "classic"})
    assert code == 2
    assert len(replies) == len(bad) + 1
    for (_, words), reply in zip(bad, replies, strict=False):
        assert reply["ok"] is False
        assert words in reply["error"], reply["error"]
        assert reply["error"].count(".") <= 1  # one sentence
    assert replies[-1]["ok"] is True  # the rest still runs


def test_command_line_entry_point() -> None:
    line = json.dumps({"cards": DRAGON, "preset": "extended", "players": 3, "top": 2}) + "\n\n"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "arrange"],
        input=line + "oops\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 2
    first, second = (json.loads(x) for x in proc.stdout.splitlines())
    assert first["ok"] and first["special"] == {"name": "dragon", "points": 26}
    assert second == {"ok": False, "error": second["error"]} and "JSON" in second["error"]
