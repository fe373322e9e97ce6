"""``python -m bot play``: the console drives the same manager and views."""

from __future__ import annotations

import builtins

from bot.cli import play


def test_auto_rounds_print_showdowns_and_totals(capsys):
    assert (
        play.main(["--auto", "--rounds", "2", "--players", "3", "--seed", "4", "--lang", "en"]) == 0
    )
    out = capsys.readouterr().out
    assert out.count("== Round 1 · result ==") == 1 and out.count("== Round 2 · result ==") == 1
    assert "Totals after 2 round(s)" in out
    assert "Deck SHA-256" in out and "Salt:" in out


def test_interactive_round_with_typed_commands(capsys, monkeypatch):
    typed = iter(["help", "g", "a 1", "c", "q"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(typed))
    assert play.main(["--players", "2", "--seed", "2", "--lang", "en", "--step", "0"]) == 0
    out = capsys.readouterr().out
    assert "[1] " in out and "[13] " in out  # the numbered cards
    assert "1. Tail " in out  # suggestions were shown
    assert "Confirmed" in out or "== Round 1 · result ==" in out
    assert "== Round 1 · result ==" in out
