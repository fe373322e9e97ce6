"""A player's private hand: the cards as buttons, the lanes so far, the
controls, suggestions and the reason when an arrangement was refused."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.core.actions import Verb
from bot.core.hand import Hand, Suggestion
from bot.core.presses import can_declare, can_lane, check_confirm
from bot.core.refused import Refused
from bot.core.room import Room
from bot.core.state import LANE_NAMES, Phase
from bot.i18n import t
from bot.rules.cards import parse_card
from bot.rules.options import Rules

from .deadline import counts_down, deadline_text, time_left_text
from .keys import KeyKind, ViewKey
from .model import Audience, Button, ButtonStyle, View, ViewKind, ViewMeta
from .render_common import (
    BIG_JOKER_TEXT,
    MAX_BUTTONS,
    button,
    cards_text,
    category,
    clauses,
    grid,
    labelled,
    lane,
    lang_of,
    noted,
    rank_text,
    signed,
    special,
)
from .render_match import review_button
from .render_result import hand_result_lines, result_buttons, settled_for

LANE_STYLE = {
    "head": ButtonStyle.PRIMARY,
    "middle": ButtonStyle.SUCCESS,
    "tail": ButtonStyle.DANGER,
}
NEXT_SORT = {"rank": "suit", "suit": "count", "count": "rank"}


def lane_gist(tokens: list[str]) -> str:
    """What tells one suggestion from another at a glance: the grouped ranks
    (``7 7 7 + 8 8``, ``J J``) or, for straights, flushes and high cards, the
    ranks high to low (``A Q 9 5 2``; jokers as 🃏). Every rank is its own
    word, so ``10 10 10`` never reads as ``101010``. Suits are left out: the
    lane's cards are on the buttons once the suggestion is applied."""
    cards = [parse_card(x) for x in tokens]
    counts = Counter(c.rank for c in cards if not c.is_joker)
    jokers = [BIG_JOKER_TEXT] * sum(c.is_joker for c in cards)
    groups = sorted((r for r, n in counts.items() if n >= 2), key=lambda r: (-counts[r], -r))
    if groups:
        words = [" ".join([rank_text(r)] * counts[r]) for r in groups]
        return " + ".join(words + ([" ".join(jokers)] if jokers else []))
    return " ".join([rank_text(r) for r in sorted(counts, reverse=True)] + jokers)


def suggestion_text(lang: str, s: Suggestion) -> str:
    """ "head pair (J J) / middle flush (A Q 9 5 2) / tail full house
    (7 7 7 + 8 8) → about +2.4 points": head to tail, as the hand's lanes
    are listed and the picture draws them."""
    cats = s.cats
    parts = [
        t(
            lang,
            "hand.suggestion_lane",
            lane=lane(lang, name),
            category=category(lang, cats[i]),
            ranks=lane_gist(list(s.lane(name))),
        )
        for i, name in enumerate(LANE_NAMES)
    ]
    return t(lang, "hand.suggestion", lanes=" / ".join(parts), points=signed(float(s.score)))


def reason_text(lang: str, key: str, params: dict[str, Any]) -> str:
    if key == "err.foul":
        pairs = params.get("pairs") or []
        text = clauses(
            lang, (t(lang, "err.foul_pair", a=lane(lang, a), b=lane(lang, b)) for a, b in pairs)
        )
        return t(lang, "err.foul", lanes=text)
    if key == "err.option":
        return t(lang, key, reason=params.get("reason", ""))
    return t(lang, key, **params)


def hand_view(
    room: Room,
    key: str,
    *,
    refused: tuple[str, dict[str, Any]] | None = None,
    now: float | None = None,
) -> View:
    lang = lang_of(room)
    rnd = room.rnd
    hand = rnd.hands[key]
    rid, no = room.id, rnd.no
    lines = lane_lines(hand, lang, aiming=room.phase == Phase.ARRANGING)
    if rnd.wild_rank:
        lines.append(t(lang, "table.wild", rank=rnd.wild_rank.replace("T", "10")))
    done = hand.done
    time_line = _time_line(room, lang, done, now)
    if time_line:
        lines.append(time_line)
    # Once the round is paid the hand is the player's result, not "waiting
    # for the others": the table redraws it then (render_result).
    settled = settled_for(room, key)
    if room.phase == Phase.CLOSED:
        lines.append(t(lang, "hand.room_closed"))
    elif hand.declared:
        lines.append(t(lang, "hand.declared", special=special(lang, hand.declared)))
    elif hand.auto:
        lines.append(t(lang, "hand.auto"))
    elif done and not settled:
        lines.append(t(lang, "hand.confirmed"))
    elif hand.special:
        lines.append(
            t(
                lang,
                "hand.special_offer",
                special=special(lang, hand.special.hand),
                points=hand.special.points,
            )
        )
    if settled:
        lines.extend(hand_result_lines(room, key))
    if not done and room.phase == Phase.ARRANGING:
        extra = hand.extra_cards()
        # One hint: with 多三张 the tail is tapped too and the rest discarded.
        lines.append(t(lang, "hand.hint_extra", count=extra) if extra else t(lang, "hand.hint"))
        items = hand.suggestions or []
        if items and items[0].declare_better and hand.special:
            lines.append(t(lang, "hand.declare_better"))
        if items:
            lines.append(t(lang, "hand.suggestions"))
        for n, s in enumerate(items):
            lines.append(f"{n + 1}. {suggestion_text(lang, s)}")
    # A fouled complete split is marked in the hand's state (round.py); a
    # refused confirm passes the same reason.
    if refused is None and hand.refused and not done:
        refused = (hand.refused.key, dict(hand.refused.params))
    if refused:
        lines.append("⚠️ " + reason_text(lang, *refused))
    buttons: tuple[tuple[Button, ...], ...] = ()
    if not done and room.phase == Phase.ARRANGING:
        buttons = _buttons(hand, rnd.game_rules(), lang, rid, no)
    elif settled and room.phase != Phase.CLOSED:
        buttons = result_buttons(room, key)
    elif done and room.phase != Phase.CLOSED:
        # The round's review (复盘) from the confirm on, on the edit that
        # closes the keyboard (pressed before the round is paid, it says when).
        buttons = ((review_button(room, no),),)
    user_id = key.split(":", 1)[1] if ":" in key else key
    return View(
        kind=ViewKind.HAND,
        audience=Audience.PLAYER,
        key=str(ViewKey(KeyKind.HAND, rid, player=key)),
        title=t(lang, "hand.title", round=no),
        lines=tuple(lines),
        buttons=buttons,
        platform=room.platform,
        chat_id=room.chat_id,
        user_id=user_id,
        language=lang,
        meta=ViewMeta(player=key, round=no, deadline=int(rnd.deadline)),
    )


def lane_lines(hand: Hand, lang: str, *, aiming: bool) -> list[str]:
    """Each lane's cards so far; while arranging, the lane the next tapped
    card goes to is marked ▶ (as its button is)."""
    aimed = hand.aim if aiming and not hand.done and len(hand.open_lanes()) > 1 else None
    cards = hand.cards
    return [
        ("▶ " if name == aimed else "")
        + labelled(
            lang,
            noted(lang, lane(lang, name), f"{len(placed)}/{size}"),
            cards_text(cards[i] for i in placed),
        )
        for name, placed, size in zip(LANE_NAMES, hand.lanes(), (3, 5, 5), strict=True)
    ]


def _lane_buttons(hand: Hand, lang: str, rid: str, no: int) -> list[Button]:
    """The lanes a tapped card can go to (the table's ``can_lane``), the
    aimed one marked ▶; none when only one is left (it takes the taps, or
    the rest by itself)."""
    lanes = [name for n, name in enumerate(LANE_NAMES) if can_lane(hand, str(n))]
    if len(lanes) < 2:
        return []
    return [
        button(
            t(lang, "btn.lane_aimed" if name == hand.aim else "btn.lane", lane=lane(lang, name)),
            rid,
            no,
            Verb.LANE,
            str(LANE_NAMES.index(name)),
            style=LANE_STYLE[name] if name == hand.aim else ButtonStyle.SECONDARY,
        )
        for name in lanes
    ]


def _confirm_button(hand: Hand, rules: Rules, lang: str, rid: str, no: int) -> Button:
    """Confirm, saying what stops it before it is pressed (the table's
    ``check_confirm``): the cards still to place (disabled: Telegram cannot
    grey a button out, so the label tells), or a foul (a fouled split is
    never accepted, docs/rules.md §3; pressed, it answers which lanes are out
    of order and changes nothing)."""
    try:
        check_confirm(hand, rules)
    except Refused as refused:
        if refused.key == "err.incomplete":
            label = t(lang, "btn.confirm_wait", count=13 - refused.params["placed"])
            return button(label, rid, no, Verb.CONFIRM, disabled=True)
        label = t(lang, "btn.confirm_foul")
        return button(label, rid, no, Verb.CONFIRM, style=ButtonStyle.DANGER)
    return button(t(lang, "btn.confirm"), rid, no, Verb.CONFIRM, style=ButtonStyle.SUCCESS)


def _time_line(room: Room, lang: str, done: bool, now: float | None) -> str | None:
    """How long is left to arrange, while the round is arranged. On
    Telegram the time left as a duration, for a hand still being arranged
    (the table redraws it at coarse steps; a confirmed hand has nothing
    left to do and is not redrawn for it); elsewhere (Discord counts down
    by itself) the deadline, a warning once the reminder went out."""
    if room.phase != Phase.ARRANGING:
        return None
    rnd = room.rnd
    if counts_down(room) and now is not None:
        return None if done else time_left_text(room, lang, now)
    return deadline_text(room, lang, rnd.deadline, warn=rnd.reminded and not done)


def _buttons(
    hand: Hand, rules: Rules, lang: str, rid: str, no: int
) -> tuple[tuple[Button, ...], ...]:
    head, middle, tail = hand.lanes()
    where = {i: "head" for i in head} | {i: "middle" for i in middle} | {i: "tail" for i in tail}
    card_buttons = []
    for i in hand.order:
        label = cards_text([hand.cards[i]])
        lane_name = where.get(i)
        if lane_name:
            label = f"{label}·{t(lang, f'lane_short.{lane_name}')}"
        style = LANE_STYLE[lane_name] if lane_name else ButtonStyle.SECONDARY
        card_buttons.append(button(label, rid, no, Verb.PICK, str(i), style=style))
    nxt = NEXT_SORT[hand.sort]
    # While two lanes or more are open the lane buttons stand where confirm
    # would (it could not be pressed yet): 13 cards, 报道 and three
    # suggestions still fit Discord's 25 buttons.
    lanes = _lane_buttons(hand, lang, rid, no)
    controls = [
        *(lanes or [_confirm_button(hand, rules, lang, rid, no)]),
        button(t(lang, "btn.undo"), rid, no, Verb.UNDO),
        button(t(lang, "btn.reset"), rid, no, Verb.RESET),
        button(t(lang, f"btn.sort_{nxt}"), rid, no, Verb.SORT, nxt),
    ]
    if can_declare(hand, rules):
        controls.append(
            button(t(lang, "btn.declare"), rid, no, Verb.DECLARE, style=ButtonStyle.PRIMARY)
        )
    # Once the suggestions are shown, their buttons take Suggest's place (asked
    # again it gives the same three).
    shown = (hand.suggestions or [])[:3]
    for n, _ in enumerate(shown):
        controls.append(button(t(lang, "btn.apply", n=n + 1), rid, no, Verb.APPLY, str(n)))
    if not shown:
        controls.append(button(t(lang, "btn.suggest"), rid, no, Verb.SUGGEST))
    controls.append(Button(t(lang, "btn.open_page"), style=ButtonStyle.PRIMARY, web_app=True))
    if len(card_buttons) + len(controls) > MAX_BUTTONS:
        # 16 cards, three lanes open and the suggestions shown: one too
        # many for Discord; the aimed lane's button goes (pressing it would
        # change nothing; ▶ in the text and the picture still marks it).
        aimed = t(lang, "btn.lane_aimed", lane=lane(lang, hand.aim))
        controls = [b for b in controls if b.label != aimed]
    return grid(card_buttons, controls)
