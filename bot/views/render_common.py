"""Small helpers shared by the renderers: cards with suit symbols, names
from the catalogs, buttons carrying action ids, grid layout."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from bot.core.actions import Verb, encode
from bot.core.room import Room
from bot.core.traits import COMMAND_NAMES, traits_of
from bot.i18n import t
from bot.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES, REGISTRY
from bot.rules.cards import BIG_JOKER, Card, parse_card, sort_by_count
from bot.rules.cards import rank_char as card_rank_char
from bot.rules.options import OptionError
from bot.rules.room_options import OPTIONS, OptionKind

from .model import Button, ButtonStyle

MAX_ROW = 5  # the strictest platform's grid: at most 5 buttons a row ...
MAX_ROWS = 5  # ... and 5 rows a message
MAX_BUTTONS = MAX_ROW * MAX_ROWS


# The emoji forms (with VARIATION SELECTOR-16): phones draw hearts and
# diamonds red only in this form; the plain symbols often come out black.
SUIT_EMOJI = {"s": "♠️", "h": "♥️", "d": "♦️", "c": "♣️"}
# Jokers as Chinese decks print them: 大王 is the coloured joker (🃏, the one
# joker emoji), 小王 the black-and-white one (★, in every phone's fonts;
# 🂿 is not an emoji and shows as an empty box on many phones).
BIG_JOKER_TEXT = "🃏"
SMALL_JOKER_TEXT = "★"


def card_text(card: Card) -> str:
    """``A♠️``, ``10♦️``; 大王 ``🃏``, 小王 ``★`` (docs/messages.md)."""
    if card.is_joker:
        return BIG_JOKER_TEXT if card.rank == BIG_JOKER else SMALL_JOKER_TEXT
    return rank_text(card.rank) + SUIT_EMOJI[card.suit]


def rank_text(rank: int) -> str:
    return "10" if rank == 10 else card_rank_char(rank)


@lru_cache(maxsize=512)
def sym(token: str) -> str:
    """``As`` -> ``A♠️``, ``Td`` -> ``10♦️``; jokers as 🃏 (大王) / ★ (小王)."""
    return card_text(parse_card(token))


def cards_text(tokens: Iterable[str]) -> str:
    return " ".join(sym(x) for x in tokens)


def lane_text(tokens: Iterable[str]) -> str:
    """A lane as people read it: groups first (trips, pairs), high to low."""
    return " ".join(card_text(c) for c in sort_by_count(parse_card(x) for x in tokens))


def suit_text(suit: str) -> str:
    return SUIT_EMOJI.get(suit, suit)


def lang_of(room: Room | None, default: str = DEFAULT_LANGUAGE) -> str:
    return room.language if room else default


def name(room: Room, key: str) -> str:
    return room.name_of(key)


def category(lang: str, slug: str) -> str:
    return t(lang, f"cat.{slug}")


def special(lang: str, hand: str) -> str:
    return t(lang, f"special.{hand}")


def lane(lang: str, lane_name: str) -> str:
    return t(lang, f"lane.{lane_name}")


# Punctuation between the pieces a renderer puts together, from the catalogs
# (format.json): full-width in Chinese (头道：…（一对）, 房主、AI 普通), ASCII
# in English.


def labelled(lang: str, label: str, value: str) -> str:
    """``Head: A♠️ K♠️ Q♠️`` / ``头道：A♠️ K♠️ Q♠️``."""
    return t(lang, "fmt.label", label=label, value=value)


def noted(lang: str, text: str, note: str) -> str:
    """``A♠️ A♥️ 9♣️ (pair)`` / ``A♠️ A♥️ 9♣️（一对）``."""
    return t(lang, "fmt.note", text=text, note=note)


def listed(lang: str, items: Iterable[str]) -> str:
    """``owner, AI normal`` / ``房主、AI 普通``."""
    return t(lang, "fmt.list").join(items)


def clauses(lang: str, items: Iterable[str]) -> str:
    """``Head beats Middle; Head beats Tail`` / ``头道大于中道；头道大于尾道``."""
    return t(lang, "fmt.clauses").join(items)


def signed(points: int | float) -> str:
    """``+3``, ``-2`` and plain ``0`` (a score of nothing has no sign)."""
    if isinstance(points, float):
        text = f"{points:+.1f}"
        return "0" if text in ("+0.0", "-0.0") else text
    return f"{points:+d}" if points else "0"


def command(platform: str, name: str) -> str:
    """How a player types command ``name`` on ``platform``, as the platform
    declares it (``bot.core.traits``); the terminal's are bare words."""
    return traits_of(platform).command(name)


def commands(platform: str) -> dict[str, str]:
    """Every command as placeholders ``cmd_<name>`` for a catalog text."""
    spell = traits_of(platform).command
    return {f"cmd_{n}": spell(n) for n in COMMAND_NAMES}


def button(
    label: str,
    room_id: str,
    round_no: int,
    verb: Verb,
    arg: str | None = None,
    style: ButtonStyle = ButtonStyle.SECONDARY,
    disabled: bool = False,
) -> Button:
    return Button(
        label=label, action_id=encode(room_id, round_no, verb, arg), style=style, disabled=disabled
    )


def rows(buttons: Sequence[Button], width: int = MAX_ROW) -> list[tuple[Button, ...]]:
    return [tuple(buttons[i : i + width]) for i in range(0, len(buttons), width)]


def grid(
    card_buttons: Sequence[Button], controls: Sequence[Button]
) -> tuple[tuple[Button, ...], ...]:
    """Cards in rows of 5, then the controls; controls share the last card
    row when they would not fit in 5 rows otherwise (16-card hands)."""
    card_rows = rows(card_buttons)
    control_rows = rows(controls)
    if len(card_rows) + len(control_rows) > MAX_ROWS and card_rows:
        last = list(card_rows.pop())
        room = MAX_ROW - len(last)
        last.extend(controls[:room])
        card_rows.append(tuple(last))
        control_rows = rows(controls[room:])
    out = tuple(card_rows + control_rows)
    assert len(out) <= MAX_ROWS and all(len(r) <= MAX_ROW for r in out), "button grid too big"
    return out


def language_codes(lang: str) -> str:
    """The languages' codes as one of them is asked for (``a, b or c``)."""
    *rest, last = LANGUAGES
    return t(lang, "fmt.or", rest=t(lang, "fmt.list").join(rest), last=last) if rest else last


def language_choices(lang: str) -> str:
    """Each language's code with its button's name, listed (``a (A), b (B)``)."""
    return t(lang, "fmt.list").join(
        t(lang, "fmt.note", text=language.code, note=language.short) for language in REGISTRY
    )


def option_reason(lang: str, error: OptionError) -> str:
    """Why an option was refused, in the room's language (echoed values clipped)."""
    params = {k: _clip(v) for k, v in error.params.items()}
    params.setdefault("languages", language_codes(lang))
    try:
        return t(lang, f"opterr.{error.key}", **params)
    except (KeyError, IndexError):
        return _clip(str(error), 200)


def _clip(value: object, limit: int = 24) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def option_name(lang: str, option: str) -> str:
    """An option's name as players say it (``鬼牌``, ``Jokers``), never the
    internal ``jokers`` / ``arrange_seconds``."""
    declared = OPTIONS.get(option)
    try:
        return t(lang, declared.label) if declared else option
    except KeyError:
        return option


def option_value(lang: str, option: str, value: Any) -> str:
    """An option's value in words, by the kind its declaration gives
    (``bot.rules.room_options``): on/off, a choice's words from the catalog
    (the preset's name, the wheel's place), a suit symbol, seconds, a
    language's own name; a number as it is."""
    try:
        return _option_words(lang, option, value)
    except TypeError:  # a value that cannot be a cache key
        return _option_words.__wrapped__(lang, option, value)


@lru_cache(maxsize=2048, typed=True)
def _option_words(lang: str, option: str, value: Any) -> str:
    text = str(value).strip().lower() if value is not None else "none"
    declared = OPTIONS.get(option)
    kind = declared.kind if declared else None
    if kind is OptionKind.SWITCH:
        truthy = text in ("on", "true", "yes", "1", "y", "开", "開")
        return t(lang, "opt.on" if truthy else "opt.off")
    if declared and declared.words:
        known = text in declared.values
        return t(lang, declared.words.format(value=text)) if known else str(value)
    if kind is OptionKind.RANK:
        if text == "random":
            return t(lang, "opt.wild_random")
        return t(lang, "opt.off") if text in ("none", "off", "") else str(value).upper()
    if kind is OptionKind.SUIT:
        if text in ("none", "off", ""):
            return t(lang, "opt.off")
        suit = parse_suit(text)
        return suit_text(suit) if suit else str(value)
    if kind is OptionKind.SECONDS:
        return t(lang, "set.time", value=value)
    if kind is OptionKind.LANGUAGE:
        return LANGUAGE_NAMES.get(str(value), str(value))
    if kind is OptionKind.ROUNDS:
        if text in ("0", "off", "none", ""):
            return t(lang, "opt.off")
        return t(lang, "match.rounds_value", n=value)
    return str(value)


LANGUAGE_NAMES = {language.code: language.name for language in REGISTRY}


def parse_suit(text: str) -> str | None:
    """``s``/``♠``/``spades`` -> ``s``; None when not a suit."""
    first = text.strip().lower()[:1]
    table = {"s": "s", "h": "h", "d": "d", "c": "c", "♠": "s", "♥": "h", "♦": "d", "♣": "c"}
    return table.get(first)
