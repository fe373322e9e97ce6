"""The key to the card marks of a round (百变 star, added-suit plus)."""

from __future__ import annotations

from bot.i18n import t
from bot.rules.cards import SUIT_SYMBOLS, rank_char

from .cards import Marks


def legend(marks: Marks, language: str) -> list[str]:
    out = []
    if marks.wild_rank is not None:
        rank = "10" if marks.wild_rank == 10 else rank_char(marks.wild_rank)
        out.append(t(language, "pic.wild", rank=rank))
    if marks.added_suit is not None:
        out.append(t(language, "pic.added", suit=SUIT_SYMBOLS[marks.added_suit]))
    return out
