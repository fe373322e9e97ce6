"""Small helpers shared by the renderers: cards with suit symbols, names
from the catalogs, buttons carrying action ids, grid layout."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from bot.core.actions import Verb, encode
from bot.rules.cards import parse_card, sort_by_count
from bot.rules.options import OptionError

from .i18n import t
from .model import Button, ButtonStyle

MAX_ROW = 5  # Discord: at most 5 buttons a row ...
MAX_ROWS = 5  # ... and 5 rows a message


@lru_cache(maxsize=512)
def sym(token: str) -> str:
    """``As`` -> ``A♠``, ``Td`` -> ``10♦``; jokers as 🃏 (big) / 🂿 (small)."""
    return parse_card(token).symbol


def cards_text(tokens: Iterable[str]) -> str:
    return " ".join(sym(x) for x in tokens)


def lane_text(tokens: Iterable[str]) -> str:
    """A lane as people read it: groups first (trips, pairs), high to low."""
    return " ".join(c.symbol for c in sort_by_count(parse_card(x) for x in tokens))


def lang_of(state: dict[str, Any] | None, default: str = "zh-Hans") -> str:
    return state.get("language", default) if state else default


def name(state: dict[str, Any], key: str) -> str:
    return state["names"].get(key, key)


def category(lang: str, slug: str) -> str:
    return t(lang, f"cat.{slug}")


def special(lang: str, hand: str) -> str:
    return t(lang, f"special.{hand}")


def lane(lang: str, lane_name: str) -> str:
    return t(lang, f"lane.{lane_name}")


def signed(points: int | float) -> str:
    if isinstance(points, float):
        return f"{points:+.1f}"
    return f"{points:+d}"


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


def option_reason(lang: str, error: OptionError) -> str:
    """Why an option was refused, in the room's language (echoed values clipped)."""
    params = {k: _clip(v) for k, v in error.params.items()}
    try:
        return t(lang, f"opterr.{error.key}", **params)
    except (KeyError, IndexError):
        return _clip(str(error), 200)


def _clip(value: object, limit: int = 24) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
