"""``thirteen play --rounds N``: a match at the console, with the review
after each round and the final results (大结算) after the last."""

from __future__ import annotations

import pytest

from bot.cli import play

from .terminal import GAME, play_cli


def test_a_one_round_match_at_the_console() -> None:
    proc = play_cli(["g", "a 1", "c"], *GAME, "--rounds", "1")
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert "Round 1/1" in out
    assert out.count("== Round 1 · result ==") == 1
    review = out.index("Review · round 1")
    final = out.index("Final results · match 1")
    result = out.index("== Round 1 · result ==")
    assert result < review and result < final  # both once the round is paid
    assert "Expected points against this table" in out[review:]
    assert "Rounds played: 1." in out[final:]
    assert out.rstrip().endswith("Bye.")


def test_auto_match_prints_the_final(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--auto", "--rounds", "3", "--players", "3", "--seed", "4", "--lang", "en"]
    assert play.main(args) == 0
    out = capsys.readouterr().out
    assert out.count("Final results · match 1") == 1
    assert out.index("== Round 3 · result ==") < out.index("Final results")
