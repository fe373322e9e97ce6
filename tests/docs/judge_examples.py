"""The examples of docs/judge.md: each ``judge-input`` / ``arrange-input``
block with the output block after it (tests/docs/test_judge_doc.py runs
them; the picture tests draw their rounds)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "judge.md"
FENCE = re.compile(
    r"^```(\w+) (judge|arrange)-(input|output)((?: [\w=]+)*)\n(.*?)^```$", re.M | re.S
)


def _values(kind: str, body: str) -> list[Any]:
    """The JSON values of a block: one pretty object, or one per line."""
    if kind == "json":
        return [json.loads(body)]
    return [json.loads(line) for line in body.splitlines() if line.strip()]


def _inputs(kind: str, body: str) -> list[str]:
    if kind == "json":
        return [json.dumps(json.loads(body), ensure_ascii=False)]
    return [line for line in body.splitlines() if line.strip()]


def examples(command: str) -> list[tuple[list[str], list[Any], set[str]]]:
    """(input lines, expected outputs, keys whose numbers are approximate)
    of each example of ``command``, in order."""
    found = [m.groups() for m in FENCE.finditer(DOC.read_text(encoding="utf-8"))]
    blocks = [(kind, part, attrs, body) for kind, cmd, part, attrs, body in found if cmd == command]
    out = []
    for (kind_in, part_in, _, body_in), (kind_out, part_out, attrs, body_out) in zip(
        blocks[::2], blocks[1::2], strict=True
    ):
        assert (part_in, part_out) == ("input", "output"), "an input block, then its output"
        inputs, expected = _inputs(kind_in, body_in), _values(kind_out, body_out)
        assert len(inputs) == len(expected), "one output per input line"
        approx = {a.removeprefix("approx=") for a in attrs.split() if a.startswith("approx=")}
        out.append((inputs, expected, approx))
    return out
