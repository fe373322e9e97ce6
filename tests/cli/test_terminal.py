"""``thirteen play`` in a real pseudo-terminal of 80 columns, in each
language: no chat words (buttons, the room's id, pictures, a server's time
zone), a match that ends where the person says, commands that do what the
help says, lines wrapped to the terminal, arguments refused before
anything else is said (issue 23, points 5-9)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.cli import play_options
from bot.cli.screen import cols, wrap
from bot.cli.terminal_words import Words, unformat
from bot.core.match import MAX_ROUNDS
from bot.i18n import LANGUAGES, t
from bot.views.model import Audience, View, ViewKind

from .terminal import ENV, GAME, PROMPT, ROOT, Terminal

LANGS = ("zh-Hans", "zh-Hant", "en")
HEAD_CARDS = "J♠️ J♥️ K♣️"  # the head of the fouled split typed below
FOUL = "3 4 1 2 5 6 8 9"  # J J K over Q 10 9 8 6: the head beats both other lanes


def squash(text: str) -> str:
    """Text without its spaces and line breaks: what a wrapped line said."""
    return re.sub(r"\s+", "", text)


def says(out: str, text: str) -> bool:
    return squash(text) in squash(out)


def before(text: str, marker: str = "\x00") -> str:
    """The part of a catalog text before its placeholder (filled with ``marker``)."""
    return text.split(marker, 1)[0]


def fits(out: str, columns: int) -> list[str]:
    """The lines wider than ``columns`` (a shell command to copy excepted)."""
    return [x for x in out.split("\n") if cols(x) > columns and "python3 -c" not in x]


@pytest.mark.parametrize("lang", LANGS)
def test_a_match_speaks_terminal_and_waits_for_the_rematch(lang: str) -> None:
    with Terminal(*GAME, "--lang", lang, "--rounds", "2") as term:
        term.play("a 1", "c")
        term.expect_prompt(t(lang, "cli.next_round"))
        term.type("v")  # the deck of round 1, checked here: no button to press
        term.expect(t(lang, "verify.ok"))
        term.expect_prompt(t(lang, "cli.next_round"))
        term.type("l")  # the whole result: every lane, every pair, the salt
        term.expect_prompt(t(lang, "cli.next_round"))
        term.type("")
        term.play("a 1", "c")
        term.expect_prompt(t(lang, "cli.rematch"))
        time.sleep(0.5)
        term._read(0.5)
        assert t(lang, "cli.bye") not in term.out  # it waits for an answer
        term.type("q")
        out = term.finish()
    assert term.returncode == 0, out
    assert out.rstrip().endswith(t(lang, "cli.bye"))
    # No chat words: the verify button, the rematch/close buttons' question,
    # the room's id, "arrange in private" under the round's own title.
    assert not says(out, t(lang, "btn.verify"))
    assert not says(out, t(lang, "final.next"))
    assert not says(out, before(t(lang, "table.title", room="\x00")))
    assert not says(out, t(lang, "table.round", round=1))
    assert out.count(f"== {t(lang, 'match.line', k=1, n=2)} ==") == 1
    assert out.count(t(lang, "match.line", k=1, n=2)) == 1  # the title, not a line again
    assert says(out, t(lang, "cli.salt", salt="", hash="\x00").split("\x00")[1])
    # Round 2's review comes before the final results, as round 1's did.
    flat = squash(out)
    review2 = flat.index(squash(t(lang, "review.title", round=2)))
    final = flat.index(squash(t(lang, "final.title", seq=1)))
    result2 = flat.index(squash(t(lang, "settle.title", round=2)))
    assert result2 < review2 < final
    assert flat.count(squash(t(lang, "final.title", seq=1))) == 1
    assert not fits(out, 80)


@pytest.mark.parametrize("lang", LANGS)
def test_auto_prints_each_result_and_the_final_results_once(lang: str) -> None:
    with Terminal(
        "--auto", "--rounds", "2", "--players", "3", "--seed", "4", "--lang", lang
    ) as term:
        out = term.finish()
    assert term.returncode == 0, out
    first = out.split("\n")[0]
    assert first == t(
        lang,
        "cli.table_auto",
        players=3,
        preset=t(lang, "preset.classic"),
        ai=t(lang, "ai.normal"),
    )
    assert "120" not in first  # nobody arranges: no arranging time
    assert out.count(f"== {t(lang, 'settle.title', round=1)} ==") == 1
    assert out.count(f"== {t(lang, 'settle.title', round=2)} ==") == 1
    final = out.index(f"== {t(lang, 'final.title', seq=1)} ==")
    assert "\n== " not in out[final + 3 :]  # no second table of totals after it
    assert not says(out, t(lang, "final.next"))
    assert not says(out, t(lang, "btn.verify"))
    assert says(out, t(lang, "cli.salt_auto", salt="", hash="\x00").split("\x00")[1])
    assert not fits(out, 80)


def test_the_deadline_is_in_this_computers_time_zone() -> None:
    # The table's default zone is Asia/Shanghai; this computer is at UTC+5:30.
    with Terminal(*GAME, "--lang", "en", env={"TZ": "XYZ-5:30"}) as term:
        term.expect(PROMPT)
        dealt = datetime.now(UTC)
        term.type("q")
        out = term.finish()
    assert "UTC" not in out
    times = re.findall(r"⏱ Arrange by (\d\d):(\d\d):(\d\d) \((\d+)s left\)", out)
    assert times, out
    here = (dealt + timedelta(hours=5, minutes=30, seconds=120)).replace(tzinfo=None)
    for h, m, s, _ in times:
        shown = here.replace(hour=int(h), minute=int(m), second=int(s))
        gap = abs((shown - here).total_seconds())
        assert min(gap, 86400 - gap) < 15, (times, here)


@pytest.mark.parametrize("lang", LANGS)
def test_commands_do_what_the_help_says(lang: str) -> None:
    with Terminal(*GAME, "--lang", lang) as term:
        term.play("g 2")
        after_g2 = term.expect(PROMPT)
        term.type("a 1")  # before any g: the suggestions are worked out, then applied
        after_a1 = term.expect(PROMPT)
        term.type("help")
        helped = term.expect(PROMPT)
        term.type("r")
        term.expect(PROMPT)
        term.type(FOUL)  # all 13 placed, fouled: said now, not at confirm
        placed = term.expect(PROMPT)
        term.type("q")
        out = term.finish()
    assert term.returncode == 0, out
    assert not says(after_g2, t(lang, "cli.unknown", word="g"))
    assert says(after_g2, t(lang, "cli.suggest_number", word="g", n=2))
    assert "3/3" in after_a1 and "5/5" in after_a1
    assert says(after_a1, t(lang, "hand.suggestions"))
    for word in (
        "undo",
        "reset",
        "sort",
        "suggest",
        "apply",
        "declare",
        "confirm",
        "show",
        "verify",
        "rules",
        "help",
        "quit",
    ):
        assert re.search(rf"\b{word}\b", helped), word
    assert says(placed, before(t(lang, "err.foul", lanes="\x00")))
    head = next(x for x in placed.split("\n") if HEAD_CARDS in x)
    assert head.endswith(t(lang, "cli.lane_category", line="", category=t(lang, "cat.one_pair")))
    assert says(placed, t(lang, "cat.high_card"))  # the middle's


@pytest.mark.parametrize("lang", LANGS)
def test_lines_are_wrapped_to_the_terminal(lang: str) -> None:
    with Terminal(*GAME, "--lang", lang) as term:
        term.play("a 1", "help", "q")
        out = term.finish()
    assert not fits(out, 80), fits(out, 80)
    welcome = t(lang, "cli.welcome")
    lines = out.split("\n")
    start = next(i for i, x in enumerate(lines) if welcome.startswith(x))
    shown = lines[start : start + 2]
    if lang == "en":
        assert " ".join(shown) == welcome  # broken between words, none cut
    else:
        assert "".join(shown).startswith(welcome[:10]) and says(out, welcome)


def test_the_width_is_the_terminals_own_without_columns() -> None:
    with Terminal(*GAME, "--lang", "zh-Hans", columns=60, env_columns=False) as term:
        term.play("a 1", "help", "q")
        out = term.finish()
    assert not fits(out, 60), fits(out, 60)
    assert len(out.split("\n")) > 40


def test_wrapping_counts_cjk_as_two_columns() -> None:
    assert cols("十三水") == 6 and cols("abc") == 3 and cols("♠️") == 2 and cols("10♥️") == 4
    text = "头道大于中道，中道大于尾道。" * 6
    lines = wrap(text, 20)
    assert "".join(lines) == text
    assert all(cols(x) <= 20 for x in lines)
    assert not any(x.startswith(("，", "。")) for x in lines)
    hashed = "牌序 SHA-256：" + "ab" * 40
    assert all(cols(x) <= 30 for x in wrap(hashed, 30))
    indented = wrap("  AI-1 vs You: AI-1 won 6 (Head AI-1 · Middle AI-1 · Tail AI-1)", 30)
    assert all(x.startswith("  ") for x in indented)
    assert wrap("x" * 100, None) == ["x" * 100]


@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_option_names_the_options(lang: str) -> None:
    with Terminal("-o", "foo=bar", "--lang", lang) as term:
        out = term.finish()
    assert term.returncode == 2
    assert says(out, before(t(lang, "cli.unknown_option", name="foo", names="\x00")))
    assert "jokers" in out and "banker" in out and "extra_three" in out
    assert not says(out, t(lang, "cli.welcome"))
    assert not fits(out, 80)


@pytest.mark.parametrize("lang", LANGS)
def test_an_option_the_seats_cannot_play_is_refused_before_the_deal(lang: str) -> None:
    with Terminal("-o", "banker=on", "--players", "3", "--lang", lang) as term:
        out = term.finish()
    assert term.returncode == 2
    assert says(out, t(lang, "opterr.banker_four"))
    assert not says(out, t(lang, "cli.dealing"))
    assert not says(out, t(lang, "cli.welcome"))


def test_rounds_help_and_check_agree(capsys: pytest.CaptureFixture[str]) -> None:
    assert play_options.parse_args(["--rounds", str(MAX_ROUNDS)]).rounds == MAX_ROUNDS
    for bad in ("0", str(MAX_ROUNDS + 1), "150"):
        with pytest.raises(SystemExit):
            play_options.parse_args(["--rounds", bad])
        assert f"a whole number from 1 to {MAX_ROUNDS}" in capsys.readouterr().err
    assert f"(1-{MAX_ROUNDS})" in " ".join(play_options.parser().format_help().split())


def test_every_play_option_has_help_and_language_has_one_name_everywhere() -> None:
    for action in play_options.parser()._actions:
        assert action.help, action.option_strings
    assert play_options.parse_args(["--lang", "en"]).language == "en"
    assert play_options.parse_args(["--language", "zh-Hant"]).language == "zh-Hant"
    for command in ("play", "picture"):
        proc = subprocess.run(
            [sys.executable, "-m", "bot", command, "--help"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=ENV,
            timeout=60,
            check=True,
        )
        choices = "{" + ",".join(LANGUAGES) + "}"  # the registry's, in its order
        assert f"--language {choices}, --lang {choices}" in proc.stdout, command


def test_an_option_of_language_is_the_consoles_language_too() -> None:
    args = play_options.parse_args(["-o", "language=en"])
    play_options._language_of(args)
    assert args.language == "en"


def test_run_help_is_for_a_person() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "run", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**ENV, "COLUMNS": "80"},
        timeout=60,
        check=True,
    )
    assert "``" not in proc.stdout and "fanned out" not in proc.stdout
    assert "TELEGRAM_TOKEN" in proc.stdout and "DISCORD_TOKEN" in proc.stdout
    assert all(len(x) <= 80 for x in proc.stdout.splitlines())


def test_bench_outside_a_checkout_says_so(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "bench", "rules_bench"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**ENV, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "have: " not in proc.stderr
    assert "source checkout" in proc.stderr and str(tmp_path / "bench") in proc.stderr


def _view(lang: str, kind: ViewKind, lines: list[str], title: str = "x") -> View:
    return View(
        kind=kind,
        audience=Audience.GROUP,
        key="table:abc123",
        title=title,
        lines=tuple(lines),
        language=lang,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_chat_lines_in_terminal_words(lang: str) -> None:
    words = Words(lang)
    assert words.line(t(lang, "hand.hint")) == []
    offer = t(lang, "hand.special_offer", special="x", points=3)
    assert words.line(offer) == [offer, t(lang, "cli.declare_hint")]
    options = t(lang, "table.options3", seconds=60, deal="d", extra="e", pictures="P")
    (shown,) = words.line(options)
    assert "P" not in shown and "60" in shown
    assert unformat(lang, "table.options3", options) is not None
    salt = t(lang, "settle.salt", salt="S", hash="H")
    assert words.line(salt) == [t(lang, "cli.salt", salt="S", hash="H")]
    assert Words(lang, auto=True).line(salt) == [t(lang, "cli.salt_auto", salt="S", hash="H")]
    clock = t(lang, "time.deadline_clock", when="02:41:19 (UTC+8)")
    assert words.line(clock) == []  # no deadline known: the prompt counts down
    (local,) = words.line(clock, deadline=1_000_120.0, now=1_000_000.0)
    assert "UTC" not in local and "120" in local
    table = _view(
        lang,
        ViewKind.TABLE,
        [t(lang, "table.round", round=4), "🎲"],
        title=t(lang, "table.title", room="abc123"),
    )
    assert words.title(table) == t(lang, "cli.round", round=4)


def test_a_reader_that_goes_away_ends_the_output_quietly() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--auto", "--rounds", "20", "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()  # `thirteen play --auto | head -1`
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert "Traceback" not in err and "BrokenPipe" not in err
