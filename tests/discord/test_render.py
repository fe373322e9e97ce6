"""Rendering Views as Discord components, without a client."""

from __future__ import annotations

import json
from pathlib import Path

import discord

from bot.platforms.discord.items import ACTION_TEMPLATE, ActionButton, HandDmButton
from bot.platforms.discord.render import render
from bot.table.actions import Verb, encode
from bot.views.model import Audience, Button, View, ViewKind


def _view(rows, kind=ViewKind.TABLE) -> View:
    return View(kind, Audience.GROUP, "table:abc", "title", ("line",), rows, chat_id="1")


def _ids(ui: discord.ui.View) -> list[str]:
    return [item.custom_id for item in ui.children]  # type: ignore[attr-defined]


def test_every_action_id_fits_the_template() -> None:
    import re

    pattern = re.compile(ACTION_TEMPLATE)
    for verb in Verb:
        for arg in (None, "12", "jokers=2", "zh-Hant"):
            assert pattern.fullmatch(encode("a1b2c3", 123, verb, arg))


def test_hand_of_13_cards_and_controls_fits_5_rows() -> None:
    cards = [Button(f"c{i}", encode("abc", 1, Verb.PICK, str(i))) for i in range(13)]
    controls = [
        Button(v.name, encode("abc", 1, v))
        for v in (Verb.CONFIRM, Verb.UNDO, Verb.RESET, Verb.SORT, Verb.SUGGEST)
    ]
    rows = (
        tuple(cards[0:5]),
        tuple(cards[5:10]),
        tuple(cards[10:13] + controls[:2]),
        tuple(controls[2:]),
    )
    ui = render(View(ViewKind.HAND, Audience.PLAYER, "hand:abc:discord:1", "h", (), rows)).view
    assert ui is not None and len(ui.children) == 18
    assert all(isinstance(item, ActionButton) for item in ui.children)
    assert _ids(ui)[3] == encode("abc", 1, Verb.PICK, "3")
    # discord.py lays the items out in rows of at most 5, and refuses to send more
    assert ui.to_components() and len(ui.to_components()) == 4


def test_more_than_25_buttons_are_dropped_not_fatal() -> None:
    rows = tuple(
        tuple(Button(str(i), encode("abc", 1, Verb.PICK, str(r * 6 + i))) for i in range(6))
        for r in range(6)
    )
    ui = render(_view(rows)).view
    assert ui is not None and len(ui.children) == 25


def test_table_with_my_hand_also_offers_dm() -> None:
    rows = (
        (
            Button("hand", encode("abc", 2, Verb.SHOW_HAND)),
            Button("leave", encode("abc", 2, Verb.LEAVE)),
        ),
    )
    ui = render(_view(rows)).view
    assert ui is not None
    dm = [item for item in ui.children if isinstance(item, HandDmButton)]
    assert len(dm) == 1 and dm[0].custom_id == "dc1|dm|abc|2" and dm[0].row == 0
    lobby = render(_view(((Button("join", encode("abc", 0, Verb.JOIN)),),))).view
    assert lobby is not None and not any(isinstance(i, HandDmButton) for i in lobby.children)


def test_links_titles_and_empty_views() -> None:
    view = _view(((Button("open", url="https://example.com"),),))
    rendered = render(view)
    assert rendered.embed.title == "title" and rendered.embed.description == "line"
    assert rendered.view is not None and rendered.view.children[0].url == "https://example.com"  # type: ignore[attr-defined]
    assert render(_view(())).view is None
    long = render(View(ViewKind.NOTICE, Audience.GROUP, "n", "t" * 300, ("x" * 5000,)))
    assert len(long.embed.title or "") == 256 and len(long.embed.description or "") == 4096


def test_discord_catalogs_have_the_same_keys_and_placeholders() -> None:
    import string

    root = Path(__file__).resolve().parents[2] / "bot" / "i18n" / "locales"
    catalogs = {
        lang: json.loads((root / lang / "discord.json").read_text("utf-8"))
        for lang in ("zh-Hans", "zh-Hant", "en")
    }
    keys = set(catalogs["en"])
    assert all(k.startswith("dc.") for k in keys)
    for lang, cat in catalogs.items():
        assert set(cat) == keys, lang
        for key in keys:
            fields = {f for _, f, _, _ in string.Formatter().parse(cat[key]) if f}
            expected = {f for _, f, _, _ in string.Formatter().parse(catalogs["en"][key]) if f}
            assert fields == expected, (lang, key)
