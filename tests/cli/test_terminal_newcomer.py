"""``thirteen play`` as a newcomer meets it, in a pseudo-terminal of 80×24
(issue 28 item 14, issue 29 points 5-8): the showdown step by step and a
result that fits the screen; a prompt that edits its line (readline),
reads full-width digits, never echoes a control character and refuses a
number of thousands of digits in one line."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli.screen import clean, cols
from bot.cli.terminal_words import unformat
from bot.cli.typed import Typed, parse
from bot.config import check_database_url
from bot.i18n import t
from bot.table.actions import Verb

from .terminal import ENV, GAME, PROMPT, ROOT, Terminal, play_cli

LANGS = ("zh-Hans", "zh-Hant", "en")
ROWS = 24
STEP = 0.6  # seconds between showdown steps: long enough to see them apart


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def arrivals(term: Terminal, marks: list[str], timeout: float = 60) -> list[float]:
    """When each of ``marks`` was first printed, in the order given."""
    times: list[float] = []
    deadline = time.monotonic() + timeout
    while len(times) < len(marks):
        if term.eof or time.monotonic() > deadline:
            raise AssertionError(f"{marks[len(times)]!r} never came:\n{term.out}")
        if marks[len(times)] in term.out[term.pos :]:
            term.pos = term.out.index(marks[len(times)], term.pos) + len(marks[len(times)])
            times.append(time.monotonic())
            continue
        term._read(0.02)
    return times


def screen_rows(text: str, columns: int = 80) -> int:
    """The rows ``text`` takes on a terminal of ``columns`` columns."""
    return sum(max(1, -(-cols(line) // columns)) for line in text.split("\n"))


@pytest.mark.parametrize("lang", LANGS)
def test_the_showdown_comes_step_by_step_and_the_result_fits_a_screen(lang: str) -> None:
    # Five seats, two rounds: the widest result (a room column from round 2).
    args = ["--players", "5", "--seed", "7", "--lang", lang, "--step", str(STEP)]
    with Terminal(*args) as term:
        term.play("a 1", "c")
        # Seed 7 deals AI-4 三同花: a fourth step shows the declared specials.
        steps = [t(lang, f"show.{step}") for step in ("head", "middle", "tail", "specials")]
        title = t(lang, "settle.title", round=1)
        times = arrivals(term, [t(lang, "table.showdown", round=1), *steps, title])
        # Each step printed when it comes: heads, middles, tails, specials,
        # each a step's time after the one before, and the result last.
        gaps = [b - a for a, b in zip(times[1:], times[2:], strict=False)]
        assert all(g > STEP / 2 for g in gaps), gaps
        term.expect_prompt(t(lang, "cli.next_round"))
        term.type("")
        term.play("a 1", "c")
        term.expect(t(lang, "table.showdown", round=2))
        screen = term.expect_prompt(t(lang, "cli.next_round"))
        term.type("l")  # the whole settlement, on demand
        whole = term.expect_prompt(t(lang, "cli.next_round"))
        term.type("q")
        out = term.finish()
    assert term.returncode == 0, out
    result = screen[screen.index(f"== {t(lang, 'settle.title', round=2)} ==") :]
    assert screen_rows(result.rstrip("\n")) <= ROWS, result
    # Each player's totals and their result against each opponent, on it.
    you = re.escape(t(lang, "cli.you"))
    rows = [x for x in result.split("\n") if re.match(rf"(AI-\d|{you}) ", x)]
    assert len(rows) == 5
    for row in rows:
        cells = row.split()[1:]
        assert len(cells) == 5 + 2  # four opponents (and · for oneself), round, room
        assert all(re.fullmatch(r"[·0]|[+-]\d+\*?", c) for c in cells), row
    assert t(lang, "cli.result_room") in result
    # the details (each player's parts against each opponent) wait for l
    versus = re.escape(t(lang, "result.versus_plain", name="", total="").strip())
    line = re.compile(rf"{versus}(AI-\d|{you})[+-]?\d+")
    assert not line.search(squash(result)) and line.search(squash(whole))
    assert says(whole, t(lang, "cli.salt", salt="", hash="\x00").split("\x00")[1])
    assert max(cols(x) for x in out.split("\n") if "python3 -c" not in x) <= 80


def says(out: str, text: str) -> bool:
    return squash(text) in squash(out)


def test_arrows_edit_the_line_and_recall_history() -> None:
    with Terminal(*GAME, "--lang", "en") as term:
        term.expect(PROMPT)
        term.type("r")  # a line to recall
        term.expect(PROMPT)
        os.write(term.fd, b"1 2")
        time.sleep(0.2)
        os.write(term.fd, b"\x1b[D\x1b[D\x1b[D3 \r")  # ← ← ← then "3 ": 3 1 2
        placed = term.expect(PROMPT)
        os.write(term.fd, b"\x1b[A\x1b[A\r")  # ↑ ↑: the line before, r
        reset = term.expect(PROMPT)
        term.type("q")
        out = term.finish()
    assert term.returncode == 0, out
    assert "Head (3/3): J♠️ K♣️ Q♦️" in placed  # cards 3, 1, 2: the edited line
    assert "Unknown command" not in out and "^[[" not in out
    assert "Head (0/3):" in reset  # r, recalled, took every card back


@pytest.mark.parametrize("lang", LANGS)
def test_full_width_digits_escapes_and_huge_numbers_are_answered_cleanly(lang: str) -> None:
    with Terminal(*GAME, "--lang", lang) as term:
        term.expect(PROMPT)
        term.type("１　２")  # what a Chinese input method types
        placed = term.expect(PROMPT)
        os.write(term.fd, b"\x1b[31mzz\r")
        term.expect(PROMPT)
        term.type("x\x1b[31m")
        escaped = term.expect(PROMPT)
        term.type("9" * 5000)
        huge = term.expect(PROMPT)
        term.type("q")
        out = term.finish()
    assert term.returncode == 0, out
    assert "Traceback" not in out and "\x1b[31m" not in out
    assert not says(placed, t(lang, "cli.unknown", word="１"))
    assert "2/3" in placed  # two cards placed
    # readline takes the escape as a key it does not know: the rest is a word
    (answer,) = [x for x in escaped.split("\n") if "⚠️" in x]
    word = unformat(lang, "cli.unknown", answer.split("  ", 1)[1])
    assert word is not None and word["word"].isprintable() and word["word"].startswith("x")
    answer = [x for x in huge.split("\n") if "⚠️" in x]
    assert len(answer) == 1 and "9" * 19 + "…" in answer[0]
    assert says(huge, t(lang, "cli.card_range", word="9" * 19 + "…", count=13))


def test_piped_lines_are_cleaned_before_they_are_echoed() -> None:
    proc = play_cli(["\x1b[A", "\x1b[31mzz", "１ ２", "7" * 5000, "q"], *GAME)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and "\x1b" not in proc.stdout
    assert "Unknown command zz" in proc.stdout
    assert "Head (2/3): K♣️ Q♦️" in proc.stdout
    assert "7" * 19 + "… is not a card number" in proc.stdout


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("１ ２", Typed(picks=(1, 2))),
        ("１，２、３", Typed(picks=(1, 2, 3))),
        ("9" * 5000, Typed(problem=("cli.card_range", {"word": "9" * 19 + "…", "count": 13}))),
        (
            "1 " + "9" * 4400,
            Typed(problem=("cli.card_range", {"word": "9" * 19 + "…", "count": 13})),
        ),
        ("\x1b[31mc", Typed(verb=Verb.CONFIRM)),
    ],
)
def test_typed_lines_are_read_as_typed(line: str, expected: Typed) -> None:
    assert parse(line, 13, 0) == expected


def test_clean_takes_out_control_characters() -> None:
    assert clean("a\x1b[31mb\x07c\x1b]0;title\x07d\u202ee") == "abcde"
    assert clean("ｑ\tｕｉｔ") == "q uit"


def test_verify_of_a_round_not_dealt_says_so() -> None:
    proc = play_cli(["v 99", "q"], *GAME)
    assert "There is no round 99 at this table yet: it is at round 1." in proc.stdout
    assert "not revealed" not in proc.stdout


@pytest.mark.parametrize("lang", LANGS)
def test_extra_three_says_one_placing_rule(lang: str) -> None:
    with Terminal(*GAME, "--lang", lang, "-o", "extra_three=on") as term:
        term.expect(PROMPT)
        term.type("h")
        helped = term.expect(PROMPT)
        term.type("q")
        out = term.finish()
    assert says(out, t(lang, "cli.extra_three", count=3))
    rest_is_tail = t(lang, "cli.commands").split("\n")[0]
    assert not says(out, rest_is_tail)
    assert not says(helped, t(lang, "cli.help").split("\n")[0])


def test_the_deadline_is_said_once_at_the_deal() -> None:
    with Terminal(*GAME, "--lang", "en") as term:
        dealt = term.expect(PROMPT)
        term.type("q")
        term.finish()
    assert dealt.count("⏱ Arrange by") == 1


def test_a_sqlite_url_without_a_file_is_refused() -> None:
    for url in ("sqlite:///", "sqlite://", "sqlite:///:memory:"):
        with pytest.raises(ValueError, match="needs a file name"):
            check_database_url(url)
    assert check_database_url("sqlite:///thirteen.db") == "sqlite:///thirteen.db"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--auto"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**ENV, "DATABASE_URL": "sqlite:///"},
        timeout=60,
        check=False,
    )
    assert proc.returncode != 0 and "needs a file name" in proc.stderr


def test_help_and_bench_name_their_choices() -> None:
    def run(*args: str, cwd: Path = ROOT) -> str:
        return subprocess.run(
            [sys.executable, "-m", "bot", *args],
            capture_output=True,
            text=True,
            cwd=cwd,
            env={**ENV, "COLUMNS": "80"},
            timeout=60,
            check=True,
        ).stdout

    assert "--language {zh-Hans,zh-Hant,en}" in run("play", "--help")
    listed = run("bench").split("\n")[1:]
    scripts = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if not p.stem.startswith("_"))
    assert len([x for x in listed if x.strip()]) == len(scripts)
    for line, name in zip(listed, scripts, strict=False):
        assert line.split()[0] == name and len(line.split()) > 2, line  # a description
        assert len(line) <= 80


def test_ctrl_c_and_ctrl_d_at_an_edited_prompt_end_the_game() -> None:
    with Terminal(*GAME, "--lang", "en") as term:
        term.expect(PROMPT)
        os.write(term.fd, b"1 2")  # half a line typed
        time.sleep(0.3)
        term.proc.send_signal(signal.SIGINT)
        out = term.finish(timeout=30)
    assert term.returncode == 130 and "Traceback" not in out
    assert out.rstrip().endswith("Bye.")
    with Terminal(*GAME, "--lang", "en") as term:
        term.expect(PROMPT)
        os.write(term.fd, b"\x04")  # Ctrl-D on an empty line: the end of input
        out = term.finish(timeout=30)
    assert term.returncode == 0 and out.endswith("> \nBye.\n"), out[-100:]
