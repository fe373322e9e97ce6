"""Chinese text reads as Chinese: full-width punctuation (头道：…（一对）,
房主、AI 普通, 头道大于中道；头道大于尾道) and the game's own words, never
an internal name (classic, normal); English text has no Chinese. Checked on
every view of real rounds, and on the catalogs themselves (docs/messages.md,
"Punctuation")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.core.room import Room
from bot.i18n import LANGUAGES
from bot.table.actions import Verb
from bot.views.model import View, ViewKind
from bot.views.render import hand_view, table_view
from bot.views.render_info import help_view, rules_view
from tests.table.helpers import (
    RiggedRandom,
    make_manager,
    ok,
    open_table,
    press_arrangement,
    state_of,
)

LOCALES = Path(__file__).resolve().parents[2] / "bot" / "i18n" / "locales"
CHINESE = ("zh-Hans", "zh-Hant")
HAN = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
ASCII_MARKS = re.compile(r"[:;,()?!]")

# The banker example of docs/judge.md: P0 the banker, P1 a dragon (36,
# capped at 7 against the banker).
BANKER_HANDS = [
    hand.split()
    for hand in (
        "Ks Kh Kd 9s 9h 9d 2d 2c 3s 4s 5s 6s 7s",
        "2h 3h 4h 5h 6h 7h 8h 9c Th Jh Qh Kc Ah",
        "2s 3d 5d 4c 4d 8s 8c Jd Ts Td Tc Qs Qd",
        "6d 5c 3c As Ad Js 8d 7d Ac Qc Jc 7c 6c",
    )
]


def _plain(text: str, names: list[str]) -> str:
    """``text`` without what may be ASCII in any language: the players'
    names and the room's id, commands, hashes and salts, SHA-256, A-2-3-4-5, clock
    times and the deadline's zone ``(UTC+8)`` (docs/messages.md, Deadlines)."""
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, "")
    text = re.sub(r"\b[0-9a-f]{12,}\b", "", text)
    text = re.sub(r"\d{1,2}:\d\d(:\d\d)?|\(UTC[+−-]?[\d:]*\)", "", text)
    text = re.sub(r"/\w+", "", text)  # commands are typed as they are
    return text.replace("SHA-256", "").replace("A-2-3-4-5", "")


def check_language(view: View, lang: str, names: list[str]) -> None:
    for line in (view.title, *view.lines):
        text = _plain(line, names)
        if lang in CHINESE:
            assert not ASCII_MARKS.search(text), (view.key, line)
            words = set(re.findall(r"[A-Za-z]{2,}", text))
            assert words <= {"AI"}, (view.key, line, words)
        else:
            assert not HAN.search(text), (view.key, line)


async def _banker_round(repo, clock, lang: str) -> tuple[list[View], dict]:
    """Every view of a banker round with a declared dragon, in ``lang``."""
    mgr, sink = make_manager(repo, clock, rng=RiggedRandom(BANKER_HANDS))
    rid, actors = await open_table(mgr, 4, options=(f"language={lang}", "banker=on"))
    views: list[View] = []
    views += (await ok(mgr, actors[0], Verb.START)).views
    st = await state_of(mgr, rid)
    room = Room.from_json(st)
    views.append(table_view(room, clock.now()))
    views.append(hand_view(room, actors[0].key))
    views.append(
        hand_view(
            room,
            actors[2].key,
            refused=("err.foul", {"pairs": [["head", "middle"], ["head", "tail"]]}),
        )
    )
    views += (await ok(mgr, actors[1], Verb.DECLARE)).views
    for a in (actors[0], actors[2], actors[3]):
        await press_arrangement(mgr, rid, a)
    await clock.advance(30)  # the showdown's steps
    st = await state_of(mgr, rid)
    views += sink.views
    room = Room.from_json(st)
    views += [table_view(room, clock.now()), rules_view(lang, room), help_view(lang, room)]
    return views, st


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_view_of_a_round_speaks_its_language(repo, clock, lang) -> None:
    views, st = await _banker_round(repo, clock, lang)
    names = [*st["names"].values(), st["room_id"]]
    for view in views:
        check_language(view, lang, names)
    # the pieces the renderers join, in this language's punctuation
    text = "\n".join(v.text for v in views)
    if lang in CHINESE:
        assert "：" in text and "（" in text and "、" in text  # 头道：… （一对） 房主、…
        assert "大于" in text or "大於" in text  # the refused foul, clauses joined by ；
        assert "；" in text


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_capped_special_says_what_was_paid(repo, clock, lang) -> None:
    """Banker mode: P1's dragon is worth 36 but pays 7 (the ±7 cap); the
    showdown says 7 first, and what the hand is worth."""
    views, st = await _banker_round(repo, clock, lang)
    assert st["round"]["result"]["settlement"]["totals"][st["round"]["seats"][1]] == 7
    # the showdown's step (a private hand's result writes the parts instead)
    lines = [
        line
        for v in views
        if v.kind is not ViewKind.HAND
        for line in v.lines
        if "P1" in line and ("36" in line)
    ]
    assert lines, "the specials step names P1's dragon"
    for line in lines:
        assert re.search(r"[(（]7[;；]", line), (
            line
        )  # paid first: (7; worth 36 …) / （7；本为 36…）
        assert "36" in line


def test_chinese_catalogs_use_chinese_punctuation() -> None:
    """No ASCII , ; ( ) ? ! or "label: value" in zh-Hans / zh-Hant; the one
    exception is a formula the reader types (verify.how)."""
    formulas = {"verify.how"}
    for lang in CHINESE:
        for path in sorted((LOCALES / lang).glob("*.json")):
            for key, text in json.loads(path.read_text(encoding="utf-8")).items():
                if key in formulas:
                    continue
                bare = re.sub(r"\{[^}]*\}", "", text)
                assert not re.search(r"[;,()?!]|:\s|:$", bare), (lang, path.name, key, text)


def test_english_catalogs_have_no_chinese() -> None:
    """English text carries no Chinese; the exception: a language list names
    each language in its own script (简体中文, 繁體中文)."""
    own_names = {"dc.cmd.language.zh-Hans", "dc.cmd.language.zh-Hant", "err.bad_language"}
    for path in sorted((LOCALES / "en").glob("*.json")):
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            if key not in own_names:
                assert not HAN.search(text), (path.name, key, text)
