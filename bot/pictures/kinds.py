"""Every kind of picture by name, so an outbox row can carry one as plain
JSON: its kind, and its input as data (no pickled code, nothing that ties a
stored row to a module path).

A picture's input is a frozen dataclass of this package; pydantic turns it
into JSON and back, field by field (cards, marks, categories, nested seats).
A new kind of picture is one more entry in :data:`KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from .final import FinalPicture, render_final
from .model import HandPicture, SettlementPicture, ShowdownPicture
from .render import render_dealt, render_hand, render_settlement, render_showdown


@dataclass(frozen=True)
class PictureKind:
    """One kind of picture: the input's type and how it is drawn."""

    name: str
    data_type: type
    render: Callable[[Any], bytes]

    @property
    def adapter(self) -> TypeAdapter[Any]:
        return _adapter(self.data_type)


KINDS: dict[str, PictureKind] = {
    kind.name: kind
    for kind in (
        PictureKind("hand", HandPicture, render_hand),
        PictureKind("showdown", ShowdownPicture, render_showdown),
        PictureKind("dealt", ShowdownPicture, render_dealt),
        PictureKind("settlement", SettlementPicture, render_settlement),
        PictureKind("final", FinalPicture, render_final),
    )
}
_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(data_type: type) -> TypeAdapter[Any]:
    if data_type not in _ADAPTERS:
        _ADAPTERS[data_type] = TypeAdapter(data_type)
    return _ADAPTERS[data_type]


class UnknownPicture(ValueError):
    """A stored picture whose kind or data this code cannot read."""


def kind_of(render: Callable[[Any], bytes]) -> PictureKind:
    for kind in KINDS.values():
        if kind.render is render:
            return kind
    raise UnknownPicture(f"no picture kind draws with {getattr(render, '__name__', render)!r}")


def picture_to_json(render: Callable[[Any], bytes], data: Any) -> dict[str, Any]:
    """``{"kind": ..., "data": ...}`` for a picture drawn by ``render`` from ``data``."""
    kind = kind_of(render)
    return {"kind": kind.name, "data": kind.adapter.dump_python(data, mode="json")}


def picture_from_json(stored: dict[str, Any]) -> tuple[Callable[[Any], bytes], Any]:
    """The renderer and its input back from :func:`picture_to_json`'s output."""
    kind = KINDS.get(str(stored.get("kind")))
    if kind is None:
        raise UnknownPicture(f"unknown picture kind {stored.get('kind')!r}")
    try:
        return kind.render, kind.adapter.validate_python(stored.get("data"))
    except ValueError as error:
        raise UnknownPicture(f"unreadable {kind.name} picture: {error}") from error
