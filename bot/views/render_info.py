"""One-off notices: help, rules summary, leaderboard, stats, verification,
reminders; and the owner's settings panel."""

from __future__ import annotations

from typing import Any

from bot.core.actions import Actor, Verb
from bot.core.options import rules_for, summary
from bot.core.room import Room
from bot.i18n import t
from bot.i18n.languages import REGISTRY
from bot.rules.options import OptionError, Preset, Rules, make_rules
from bot.rules.room_options import DECLARED, OptionKind, RoomOption
from bot.rules.specials import special_points
from bot.rules.types import SpecialHand

from . import render_match
from .keys import KeyKind, ViewKey
from .model import Audience, Button, ButtonStyle, View, ViewKind
from .render_common import (
    button,
    cards_text,
    commands,
    lang_of,
    listed,
    option_name,
    option_value,
    rows,
    signed,
)
from .render_lobby import options_lines


def _notice(
    lang: str,
    key: str,
    title: str,
    lines: list[str],
    room: Room | None,
    chat_id: str = "",
    audience: Audience = Audience.GROUP,
    user_id: str | None = None,
    buttons: tuple[tuple[Button, ...], ...] = (),
    platform: str = "",
) -> View:
    return View(
        kind=ViewKind.NOTICE,
        audience=audience,
        key=key,
        title=title,
        lines=tuple(lines),
        buttons=buttons,
        platform=room.platform if room else platform,
        chat_id=room.chat_id if room else chat_id,
        user_id=user_id,
        language=lang,
    )


def _answer(
    lang: str,
    key: str,
    title: str,
    lines: list[str],
    room: Room | None,
    chat_id: str,
    reader: Actor | None,
) -> View:
    """An answer to one person's question (help, rules, verify):
    for them alone (Discord ephemeral, Telegram private chat) instead of a new
    post in the group every time someone asks; to the group only when no
    person asked (``reader`` None)."""
    if reader is None:
        return _notice(lang, key, title, lines, room, chat_id)
    return _notice(
        lang,
        f"{key}:{reader.user_id}",
        title,
        lines,
        room,
        chat_id,
        audience=Audience.PLAYER,
        user_id=reader.user_id,
        platform=reader.platform,
    )


def _where(room: Room | None, chat_id: str) -> str:
    return room.id if room else (chat_id or "-")


def help_view(lang: str, room: Room | None, chat_id: str = "", reader: Actor | None = None) -> View:
    platform = room.platform if room else (reader.platform if reader else "")
    cmds = commands(platform)
    lines = [t(lang, f"help.{i}", **cmds) for i in range(1, 9)]
    return _answer(
        lang,
        str(ViewKey(KeyKind.HELP, _where(room, chat_id))),
        t(lang, "help.title"),
        lines,
        room,
        chat_id,
        reader,
    )


def _table_rules(room: Room | None, preset: str) -> Rules:
    """The room's rules at its player count (4 for a summary without a room,
    or while the options only fit another count)."""
    if room:
        for players in (len(room.players), 4, 5, 3, 2):
            try:
                return rules_for(room, max(2, min(5, players)))
            except OptionError:
                continue
    return make_rules(preset, 4)


def rules_view(
    lang: str, room: Room | None, chat_id: str = "", reader: Actor | None = None
) -> View:
    preset = room.preset if room else Preset.CLASSIC.value
    rules = _table_rules(room, preset)
    # The specials this table plays, in docs/rules.md order, at its own points.
    specials = [
        f"{t(lang, f'special.{hand.value}')} {points}"
        for hand in SpecialHand
        if (points := special_points(hand, rules)) is not None
    ]
    lines = [t(lang, f"rules.{i}") for i in range(1, 7)]
    lines.append(t(lang, "rules.specials", list=listed(lang, specials)))
    if room:
        lines += options_lines(room)
    return _answer(
        lang,
        str(ViewKey(KeyKind.RULES, _where(room, chat_id))),
        t(lang, "rules.title", preset=t(lang, f"preset.{preset}")),
        lines,
        room,
        chat_id,
        reader,
    )


def leaderboard_view(lang: str, rows_: list[Any], period: str, chat_id: str, platform: str) -> View:
    """The group's board, posted in the group (one per chat: asked again
    soon after, it edits that one; docs/delivery.md)."""
    lines = []
    if not rows_:
        lines.append(t(lang, "lb.empty"))
    for n, r in enumerate(rows_, 1):
        lines.append(
            t(
                lang,
                "lb.row",
                n=n,
                name=r.name,
                points=signed(r.points),
                rounds=r.rounds,
                rate=round(100 * r.win_rate),
                scoops=r.scoops,
                home_runs=r.home_runs,
                specials=r.specials,
            )
        )
    title = t(lang, "lb.title", period=t(lang, f"lb.{period}"))
    return _notice(
        lang,
        str(ViewKey(KeyKind.LEADERBOARD, chat_id)),
        title,
        lines,
        None,
        chat_id,
        platform=platform,
    )


def stats_view(lang: str, stats: Any, actor: Actor, chat_id: str = "") -> View:
    """A person's record: in the group it was asked in (one per person
    there, edited when asked again soon after), privately without one."""
    if stats is None:
        lines = [t(lang, "stats.none")]
    else:
        lines = [
            t(
                lang,
                "stats.line1",
                points=signed(stats.points),
                rounds=stats.rounds,
                rate=round(100 * stats.win_rate),
                chats=stats.chats,
            ),
            t(
                lang,
                "stats.line2",
                scoops=stats.scoops,
                home_runs=stats.home_runs,
                specials=stats.specials,
                best=signed(stats.best_round),
            ),
        ]
    title = t(lang, "stats.title", name=actor.name or actor.user_id)
    key = str(ViewKey(KeyKind.STATS, actor.key))
    if chat_id:
        return _notice(lang, key, title, lines, None, chat_id, platform=actor.platform)
    return _notice(
        lang,
        key,
        title,
        lines,
        None,
        audience=Audience.PLAYER,
        user_id=actor.user_id,
    )


def verify_view(
    room: Room,
    round_no: int,
    deck: list[str],
    salt: str,
    hash_hex: str,
    ok: bool,
    reader: Actor | None = None,
) -> View:
    lang = lang_of(room)
    lines = [
        t(lang, "verify.hash", hash=hash_hex),
        t(lang, "verify.salt", salt=salt),
        t(lang, "verify.deck", deck=cards_text(deck)),
        t(lang, "verify.tokens", deck=" ".join(deck)),
        t(lang, "verify.how"),
        t(lang, "verify.ok") if ok else t(lang, "verify.bad"),
    ]
    return _answer(
        lang,
        str(ViewKey(KeyKind.VERIFY, room.id, round=round_no)),
        t(lang, "verify.title", round=round_no),
        lines,
        room,
        "",
        reader,
    )


def notice_view(room: Room, key: str, params: dict[str, Any]) -> View:
    lang = lang_of(room)
    return _notice(
        lang, str(ViewKey(KeyKind.NOTICE, room.id, name=key)), "", [t(lang, key, **params)], room
    )


def _remove_buttons(room: Room, lang: str) -> list[Button]:
    """One button per seat but the owner's: take that player (or AI) off the
    table before the deal. At most 4, so the panel keeps within 25 buttons."""
    rid, no = room.id, room.round_no
    out = []
    for p in room.players:
        if p.key == room.owner:
            continue
        label = t(lang, "btn.remove_seat", name=p.name[:12])
        if p.ai:
            verb, arg = Verb.REMOVE_AI, p.key.removeprefix("ai:")
        else:
            verb, arg = Verb.REMOVE_PLAYER, p.key.split(":", 1)[1]
        out.append(button(label, rid, no, verb, arg, style=ButtonStyle.DANGER))
    return out


def _next(option: RoomOption, current: Any) -> str:
    """What a tap on the option's panel button sets: the value after the
    current one in its declared cycle (the first when it is not in it)."""
    if option.kind is OptionKind.ROUNDS:
        return str(render_match.next_rounds(int(current)) or "off")
    if option.kind is OptionKind.SWITCH:
        current = "on" if current else "off"
    elif current is None:
        current = "none"
    cycle = [str(v) for v in option.panel or ()]
    now = str(current)
    return cycle[(cycle.index(now) + 1) % len(cycle)] if now in cycle else cycle[0]


def settings_view(room: Room, actor: Actor) -> View:
    """The owner's panel: one button per option, each labelled with the
    option's CURRENT value (``Jokers: 1``); a tap moves it to the next value.
    The languages are choices side by side, the current one ticked. At most
    24 buttons (Discord allows 25 a message)."""
    lang = lang_of(room)
    rid, no = room.id, room.round_no
    shown = summary(room)

    def cycle(option: RoomOption) -> Button:
        current = shown[option.name]
        value = option_value(lang, option.name, current)
        label = t(lang, "set.current", name=option_name(lang, option.name), value=value)
        return button(label, rid, no, Verb.SET_OPTION, f"{option.typed}={_next(option, current)}")

    def choice(label: str, current: bool, verb: Verb, arg: str) -> Button:
        style = ButtonStyle.PRIMARY if current else ButtonStyle.SECONDARY
        return button(("✓ " if current else "") + label, rid, no, verb, arg, style=style)

    buttons = [
        *(cycle(o) for o in DECLARED if o.owner_sets and o.panel is not None),
        *(
            choice(language.short, room.language == language.code, Verb.LANGUAGE, language.code)
            for language in REGISTRY
        ),
        button(t(lang, "btn.add_ai_easy"), rid, no, Verb.ADD_AI, "easy"),
        button(t(lang, "btn.add_ai_normal"), rid, no, Verb.ADD_AI, "normal"),
        button(t(lang, "btn.add_ai_strong"), rid, no, Verb.ADD_AI, "strong"),
        *_remove_buttons(room, lang),
    ]
    return View(
        kind=ViewKind.NOTICE,
        audience=Audience.PLAYER,
        key=str(ViewKey(KeyKind.SETTINGS, rid)),
        title=t(lang, "set.title"),
        lines=tuple(options_lines(room) + [t(lang, "set.hint")]),
        buttons=tuple(rows(buttons)),
        platform=room.platform,
        chat_id=room.chat_id,
        user_id=actor.user_id,
        language=lang,
    )


def close_confirm_view(room: Room, actor: Actor) -> View:
    """Asked before a round in play is thrown away: for the owner alone, one
    red button that closes, nothing else (ignoring it keeps playing)."""
    lang = lang_of(room)
    rid, no = room.id, room.round_no
    yes = button(t(lang, "btn.close_confirm"), rid, no, Verb.CANCEL, "yes", ButtonStyle.DANGER)
    return _notice(
        lang,
        str(ViewKey(KeyKind.CLOSE, rid)),
        t(lang, "close.title"),
        [t(lang, "close.body", round=no)],
        room,
        audience=Audience.PLAYER,
        user_id=actor.user_id,
        buttons=((yes,),),
    )
