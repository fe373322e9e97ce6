"""Reading the points a settlement prints, as a player adds them up: every
written part carries its points as a signed number (``尾道 +4 铁支``,
``打枪 ×2 −6``, ``逃跑罚分 -10``), a tied lane ``0``; a factor (``×2``) is
not points, and a scoop that doubles nothing (``打枪（不翻倍）``) carries none."""

from __future__ import annotations

import re

# a signed number or a lone 0, not a factor's "×2" nor a digit inside a word
_POINTS = re.compile(r"(?<![×\w])(?:[+\-−]\d+|0)(?!\w)")


def numbers(text: str) -> list[int]:
    """Every signed number (and lone 0) in ``text``, in order."""
    return [int(m.replace("−", "-")) for m in _POINTS.findall(text)]


def printed_points(part: str) -> int:
    """The points of one written part: its one number, or 0 with none."""
    found = numbers(part)
    assert len(found) <= 1, f"a part with more than one number: {part!r}"
    return found[0] if found else 0
