"""``thirteen play`` as a person meets it: a real process, typed lines on its
standard input, Ctrl-C; and the console's pieces in-process (the deadline
passing while a prompt waits)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from bot.cli import play, play_console, play_options
from bot.cli.screen import LineReader
from bot.cli.typed import Typed, parse, parse_between
from bot.i18n import t
from bot.table.actions import Verb
from bot.table.clock import FakeClock
from bot.table.manager import TableManager
from storage.memory import MemoryRepository

from .terminal import ENV, GAME, ROOT, play_cli


def test_a_round_with_every_kind_of_bad_line() -> None:
    proc = play_cli(
        [
            "1 1",  # the same card twice
            "1 2 x 4",  # a word that is not a card number: nothing placed
            "-1",
            "0",
            "99",
            "a 9",  # no suggestions yet: worked out, and there are 3
            "s weird",
            "zz",
            "3 4 1 2 5 6 8 9",  # J J K over Q 10 9 8 6: a foul
            "c",
            "r",
            "g",
            "a 1",
            "c",
            "q",
        ],
        *GAME,
    )
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Card 1 is twice in that line" in out
    assert "x is not a card number: the cards are numbered 1 to 13. Nothing was placed." in out
    for word in ("-1", "0", "99"):
        assert f"{word} is not a card number" in out
    assert "Type a N with N from 1 to 3." in out
    assert "Sort by rank, suit or count" in out and "Unknown command zz" in out
    assert re.search(r"\(\d+s\) > zz\n", out)  # typed lines from a pipe are echoed
    # Nothing of the refused lines was placed: the first lanes shown are the typed ones.
    first_lanes = out.index("Head (3/3): J♠️ J♥️ K♣️")
    assert "Head (1/3)" not in out[:first_lanes] and "Head (2/3)" not in out[:first_lanes]
    # The foul is said when the split is complete, and again when c is refused.
    foul = t("en", "err.foul", lanes="\x00").split("\x00")[0]
    assert out.count(foul) == 2
    assert out.index(foul) < out.index("> c\n")
    # Terminal words, not chat-button words; no raw option keys echoed.
    assert "Tap" not in out and "tap" not in out
    assert "language =" not in out and "arrange_seconds" not in out
    assert "2 players · classic rules · 120s to arrange" in out
    # The hand whole once a round, the showdown once.
    assert out.count("== Your hand · round 1 ==") == 1
    assert out.count("== Round 1 · result ==") == 1
    assert out.rstrip().endswith("Bye.")


def test_the_tail_is_placed_first() -> None:
    """A player who sees the tail first places it first (t before the
    numbers); the next cards go on to the next open lane, marked ▶."""
    proc = play_cli(["t 9 10 11 12 13", "1 2 3", "r", "g", "a 1", "c", "q"], *GAME)
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    tail_first = out.index("> t 9 10 11 12 13\n")
    after = out[tail_first : out.index("> 1 2 3\n")]
    assert "Tail (5/5)" in after and "Head (0/3)" in after and "▶ Middle (0/5)" in after
    then = out[out.index("> 1 2 3\n") : out.index("> r\n")]
    assert "▶ Middle (3/5)" in then and "Tail (5/5)" in then and "Head (0/3)" in then
    assert "== Round 1 · result ==" in out


def test_ctrl_c_ends_the_game_at_once_without_a_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", *GAME],
        stdin=subprocess.PIPE,  # kept open: the game waits at its prompt
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + 60
    while b"s) > " not in seen and time.monotonic() < deadline:
        seen += os.read(proc.stdout.fileno(), 4096)
    assert b"s) > " in seen, seen
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 130  # no Enter needed: standard input stays open
    assert proc.stderr is not None and proc.stdin is not None
    rest, err = proc.stdout.read(), proc.stderr.read()
    assert b"Traceback" not in err and err == b""
    assert (seen + rest).decode().rstrip().endswith("Bye.")
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        stream.close()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--rounds", "-3"], "argument --rounds: a whole number from 1 to 99, not '-3'"),
        (["--rounds", "150"], "argument --rounds: a whole number from 1 to 99, not '150'"),
        (["--players", "7"], "argument --players: a whole number from 2 to 5, not '7'"),
        (["--time", "5"], "argument --time: a whole number of seconds from 15 to 900"),
        (["--db", "bogus://x"], "argument --db: must be sqlite:///<file> or postgresql"),
        (["--jokers", "9"], "argument --jokers: invalid choice"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_bad_arguments_are_refused_with_one_line(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        play_options.parse_args(args)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_database_that_cannot_be_opened_is_one_line() -> None:
    proc = play_cli([], "--auto", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    assert proc.returncode == 1
    assert proc.stderr.startswith("thirteen play: the database cannot be used:")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_auto_rounds_print_showdowns_and_totals(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        play.main(["--auto", "--rounds", "2", "--players", "3", "--seed", "4", "--lang", "en"]) == 0
    )
    out = capsys.readouterr().out
    assert out.count("== Round 1 · result ==") == 1 and out.count("== Round 2 · result ==") == 1
    assert out.count("Final results · match 1") == 1 and "Totals after" not in out
    assert "Deck in dealing order" in out and "Salt:" in out


def test_auto_one_round_without_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert play.main(["--auto", "--players", "2", "--seed", "4", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.count("== Round 1 · result ==") == 1
    assert "Final results" not in out and "Round 2" not in out


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("", None),
        ("1 2, 3", Typed(picks=(1, 2, 3))),
        ("13", Typed(picks=(13,))),
        ("１", Typed(picks=(1,))),  # a full-width digit (NFKC) is a digit
        ("2 ²", Typed(problem=("cli.card_twice", {"number": 2}))),
        ("a 2", Typed(verb=Verb.APPLY, arg="1")),
        ("apply 3", Typed(verb=Verb.APPLY, arg="2")),
        ("a 4", Typed(problem=("cli.suggestion_range", {"count": 3}))),
        ("s", Typed(verb=Verb.SORT, arg="suit")),
        ("sort rank", Typed(verb=Verb.SORT, arg="rank")),
        ("C", Typed(verb=Verb.CONFIRM)),
        ("c now", Typed(problem=("cli.no_args", {"word": "c"}))),
        ("g 2", Typed(problem=("cli.suggest_number", {"word": "g", "n": 2}))),
        ("show", Typed(info="show")),
        ("v", Typed(info="verify")),
        ("verify 2", Typed(info="verify", arg="2")),
        ("v x", Typed(problem=("cli.verify_how", {}))),
        ("t", Typed(lane=2)),
        ("tail 9 10 11 12 13", Typed(picks=(9, 10, 11, 12, 13), lane=2)),
        ("m 1 2", Typed(picks=(1, 2), lane=1)),
        ("头 3", Typed(picks=(3,), lane=0)),
        ("t 1 1", Typed(problem=("cli.card_twice", {"number": 1}))),
        ("t 0", Typed(problem=("cli.card_range", {"word": "0", "count": 13}))),
    ],
)
def test_typed_lines(line: str, expected: Typed | None) -> None:
    assert parse(line, 13, 3) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("a 2", Typed(verb=Verb.APPLY, arg="1")),  # asks for the suggestions first
        ("a", Typed(problem=("cli.apply_how", {}))),
        ("a 0", Typed(problem=("cli.apply_how", {}))),
        ("a 99999999999999999999", Typed(problem=("cli.apply_how", {}))),
    ],
)
def test_typed_lines_before_any_suggestion(line: str, expected: Typed) -> None:
    assert parse(line, 13, 0) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("", None),
        ("q", Typed(info="quit")),
        ("v 1", Typed(info="verify", arg="1")),
        ("rules", Typed(info="rules")),
        ("1 2", Typed(problem=("cli.between_cards", {}))),
        ("show", Typed(info="show")),
    ],
)
def test_lines_between_rounds(line: str, expected: Typed | None) -> None:
    assert parse_between(line) == expected


async def test_the_deadline_closes_a_waiting_prompt(capsys: pytest.CaptureFixture[str]) -> None:
    clock = FakeClock(1_700_000_000.0)
    repo = MemoryRepository()
    await repo.init()
    mgr = TableManager(repo, clock=clock, arrange_seconds=30, default_language="en")
    con = play_console.Console(mgr, "en")
    mgr.set_sink(con.sink)
    await mgr.start()
    args = play_options.parse_args(["--players", "2", "--lang", "en", "--time", "30"])
    assert await con.setup(args, seats_for_you=True)
    assert (await con.send(Verb.START, button=True)).ok
    read_end, write_end = os.pipe()  # nothing is ever typed
    with os.fdopen(read_end, "rb") as stream:
        reader = LineReader(stream)
        task = asyncio.create_task(play.arrange_round(con, reader))
        await asyncio.sleep(0.3)
        assert not task.done()  # waiting at the prompt
        await clock.advance(31)  # the deadline: the table arranges the hand
        assert await asyncio.wait_for(task, 5) is True
        os.close(write_end)
    out = capsys.readouterr().out
    assert out.count("Time is up: the table arranged your hand.") == 1
    assert "Arranged by the table" not in out  # said once, not twice
    await mgr.stop()
    await repo.close()
