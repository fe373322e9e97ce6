"""Arrangement validity (相公 / 倒水), docs/rules.md §3: head ≤ middle ≤ tail."""

from __future__ import annotations

from dataclasses import dataclass

from .lanes import evaluate_lane
from .options import Rules
from .types import Arrangement, Lane, LaneValue


@dataclass(frozen=True, slots=True)
class FoulReport:
    """Which lanes are out of order: each pair (weaker-should-be, stronger-should-be)
    where the first lane beats the second."""

    pairs: tuple[tuple[Lane, Lane], ...]
    values: tuple[LaneValue, LaneValue, LaneValue]

    @property
    def message(self) -> str:
        parts = [f"{a.name.lower()} is stronger than {b.name.lower()}" for a, b in self.pairs]
        return "fouled arrangement (相公): " + "; ".join(parts)


def lane_values(
    arr: Arrangement, rules: Rules | None = None
) -> tuple[LaneValue, LaneValue, LaneValue]:
    return (
        evaluate_lane(arr.head, rules),
        evaluate_lane(arr.middle, rules),
        evaluate_lane(arr.tail, rules),
    )


def check_lane_sizes(arr: Arrangement) -> str | None:
    sizes = (len(arr.head), len(arr.middle), len(arr.tail))
    if sizes != (3, 5, 5):
        return f"lanes must hold 3, 5 and 5 cards, not {sizes[0]}, {sizes[1]} and {sizes[2]}"
    return None


def check_foul(arr: Arrangement, rules: Rules | None = None) -> FoulReport | None:
    """None when head ≤ middle ≤ tail (equal allowed), else the report.

    The comparison is the full lane key (joker tie-break included): a head
    that equals the middle on ranks but uses fewer jokers is stronger.
    """
    values = lane_values(arr, rules)
    head, middle, tail = values
    pairs = []
    if head > middle:
        pairs.append((Lane.HEAD, Lane.MIDDLE))
    if middle > tail:
        pairs.append((Lane.MIDDLE, Lane.TAIL))
    if head > tail:
        pairs.append((Lane.HEAD, Lane.TAIL))
    return FoulReport(tuple(pairs), values) if pairs else None
