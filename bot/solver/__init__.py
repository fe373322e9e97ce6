"""Arrangement solver: every legal split, best-response suggestions,
auto-arrange at the deadline and AI seats. Imports ``bot.rules`` only.

    suggest(cards, rules, *, players=None, top=3, banker=False) -> Suggestions
    auto_arrange(cards, rules, *, players=None) -> Arrangement
    ai_arrange(cards, rules, strength) -> (Arrangement, declares_special)
    built(rules)     whether a deck setting's opponent pool is built (memory or disk)
    prepare(rules)   builds (or reads from its disk cache) what a deck setting
                     needs now: the lane model, the opponent pool (~15 s of
                     CPU the first time) and the split tables

How it works: ``frontier`` (the splits no other split beats in every
lane), ``opponents`` and ``pool`` (who the table is modelled to be, card
removal), ``response`` (exact settlement against the pool), ``best`` (the
best response), ``model`` (lane distributions, cheap policies), ``codes``
(vectorized lane evaluation), ``search`` and ``splits`` (enumeration).
"""

from .api import (
    STRENGTHS,
    RankedArrangement,
    Suggestions,
    ai_arrange,
    auto_arrange,
    built,
    prepare,
    refine,
    strongest_tail_first,
    suggest,
)

__all__ = [
    "STRENGTHS",
    "RankedArrangement",
    "Suggestions",
    "ai_arrange",
    "auto_arrange",
    "built",
    "prepare",
    "refine",
    "strongest_tail_first",
    "suggest",
]
