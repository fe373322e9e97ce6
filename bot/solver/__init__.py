"""Arrangement solver: every legal split, expected-points suggestions,
auto-arrange at the deadline and AI seats. Imports ``bot.rules`` only.

    suggest(cards, rules, *, players=None, top=3) -> Suggestions
    auto_arrange(cards, rules, *, players=None) -> Arrangement
    ai_arrange(cards, rules, strength) -> (Arrangement, declares_special)
    prepare(rules)   builds the scoring model of a deck setting and the split
                     tables now (1-2 s of CPU, once per process and setting)
                     instead of at the first suggestion

See ``model`` for how arrangements are scored and ``codes`` for the
vectorized lane evaluation.
"""

from .api import (
    STRENGTHS,
    Suggestion,
    Suggestions,
    ai_arrange,
    auto_arrange,
    prepare,
    strongest_tail_first,
    suggest,
)

__all__ = [
    "STRENGTHS",
    "Suggestion",
    "Suggestions",
    "ai_arrange",
    "auto_arrange",
    "prepare",
    "strongest_tail_first",
    "suggest",
]
