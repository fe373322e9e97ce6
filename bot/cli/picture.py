"""``thirteen picture --out FILE``: one judge line in, its picture out.

Reads one JSON object on standard input, in the judge's input format (see
docs/judge.md), settles it exactly as ``thirteen judge`` does, and writes
the fully revealed showdown above the settlement table as a PNG, so a
disputed round can be shared. Bad input: one line on standard error, exit
status 2, no file written.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.core.state import LANE_NAMES
from bot.rules import Arrangement, CardError, OptionError, PlayerHand, detect_special, parse_cards

from . import add_language, command_parser
from .jsonl import InputError, TooLongLine, parse_line, read_lines, rules_from
from .judge import judge


def _hands(obj: dict[str, Any]) -> list[PlayerHand]:
    """The players' hands of a line the judge has accepted."""
    rules = rules_from(obj, len(obj["players"]))
    hands = []
    for p in obj["players"]:
        if "cards" in p:
            cards = parse_cards(p["cards"])
            special = detect_special(cards, rules)
            arr = special.arrangement if special and special.arrangement else None
            hands.append(
                PlayerHand(
                    str(p["id"]), arr or Arrangement.of(cards[:3], cards[3:8], cards[8:]), special
                )
            )
            continue
        arr = Arrangement.of(*(parse_cards(p[k]) for k in LANE_NAMES))
        special = detect_special(arr.cards, rules) if p.get("declare") else None
        hands.append(PlayerHand(str(p["id"]), arr, special))
    return hands


def picture(line: bytes | str, language: str) -> bytes:
    """The PNG of one judge line; raises InputError (or CardError /
    OptionError / ValueError) with one clear sentence."""
    from bot.pictures import judged_pictures, render_round

    obj = parse_line(line)  # any bytes, depth or size: one clear sentence
    if obj is None:
        raise InputError("give exactly one judge line on standard input, not 0")
    result = judge(obj)
    rules = rules_from(obj, len(obj["players"]))
    banker = str(obj["banker"]) if obj.get("banker") is not None else None
    escaped = [str(e) for e in obj.get("escaped") or []]
    show, settle = judged_pictures(_hands(obj), result, rules, language, banker, escaped)
    return render_round(show, settle)


def main(argv: Sequence[str] | None = None) -> int:
    parser = command_parser(
        "thirteen picture",
        "Read one judge input line on standard input; write the round's showdown\n"
        "and settlement picture (PNG).",
    )
    parser.add_argument("--out", required=True, type=Path, help="the PNG file to write")
    add_language(parser, "words in the picture")
    args = parser.parse_args(argv)
    # Bytes, so that no locale can garble the input (a replaced stdin may be text).
    stdin = getattr(sys.stdin, "buffer", None) or io.BytesIO(sys.stdin.read().encode())
    lines = [x for x in read_lines(stdin) if x.strip() or isinstance(x, TooLongLine)]
    try:
        if len(lines) != 1:
            raise InputError(f"give exactly one judge line on standard input, not {len(lines)}")
        png = picture(lines[0], args.language)
    except (InputError, CardError, OptionError, ValueError) as e:
        print(f"thirteen picture: {e}", file=sys.stderr)
        return 2
    try:
        args.out.write_bytes(png)
    except OSError as e:
        print(f"thirteen picture: cannot write {args.out}: {e.strerror}", file=sys.stderr)
        return 2
    return 0
