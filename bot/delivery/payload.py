"""A View as the JSON an outbox row carries, and back.

A view's picture is stored as its kind and its input as JSON
(``bot.pictures.kinds``): the PNG is drawn when the message is sent, by
whichever process sends it, and a stored row names no code. Rows written by
earlier versions carried the picture pickled (a base64 string): those are
still read, admitting only the project's own picture types and a few
builtins, so such a row cannot make the loader call anything else."""

from __future__ import annotations

import base64
import io
import logging
import pickle
from typing import Any

from bot.i18n.languages import DEFAULT_LANGUAGE
from bot.pictures.kinds import UnknownPicture, picture_from_json, picture_to_json
from bot.views.model import (
    Audience,
    Button,
    ButtonStyle,
    Mention,
    Picture,
    View,
    ViewKind,
    ViewMeta,
)

log = logging.getLogger(__name__)
_SAFE_BUILTINS = frozenset({"tuple", "list", "dict", "frozenset", "set", "str", "int", "float"})


# Classes renamed since rows were last pickled (old name -> today's), so
# an outbox row written before the rename still draws its picture.
_RENAMED = {("bot.pictures.model", "PairScore"): ("bot.pictures.model", "PairCell")}


class _PictureUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        module, name = _RENAMED.get((module, name), (module, name))
        if module.startswith(("bot.pictures.", "bot.rules.")) or (
            module == "builtins" and name in _SAFE_BUILTINS
        ):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"not a picture type: {module}.{name}")


def picture_to_payload(picture: Picture) -> dict[str, Any]:
    return {**picture_to_json(picture.render, picture.data), "filename": picture.filename}


def picture_from_payload(stored: dict[str, Any] | str) -> Picture | None:
    """A stored picture; None (the message goes out as text) when unreadable."""
    if isinstance(stored, str):
        return _pickled_picture(stored)
    try:
        render, data = picture_from_json(stored)
    except UnknownPicture:
        log.warning("delivery: a stored picture could not be read; sent as text", exc_info=True)
        return None
    return Picture(render, data, str(stored.get("filename") or "cards.png"))


def _pickled_picture(text: str) -> Picture | None:
    """A picture as rows written before pictures were stored as JSON carry it."""
    try:
        render, data, filename = _PictureUnpickler(io.BytesIO(base64.b64decode(text))).load()
    except Exception:  # an unreadable picture: the message goes out as text
        log.warning("delivery: a stored picture could not be read; sent as text", exc_info=True)
        return None
    return Picture(render, data, str(filename))


def view_to_payload(view: View) -> dict[str, Any]:
    return {
        "kind": view.kind.value,
        "audience": view.audience.value,
        "key": view.key,
        "title": view.title,
        "lines": list(view.lines),
        "buttons": [
            [
                {
                    "label": b.label,
                    "action_id": b.action_id,
                    "style": b.style.value,
                    "url": b.url,
                    "disabled": b.disabled,
                    "web_app": b.web_app,
                }
                for b in row
            ]
            for row in view.buttons
        ],
        "platform": view.platform,
        "chat_id": view.chat_id,
        "user_id": view.user_id,
        "language": view.language,
        "fresh": view.fresh,
        "meta": view.meta.to_payload(),
        "picture": picture_to_payload(view.picture) if view.picture is not None else None,
        "mentions": [[m.user_id, m.name] for m in view.mentions],
    }


def view_from_payload(data: dict[str, Any]) -> View:
    return View(
        kind=ViewKind(data["kind"]),
        audience=Audience(data["audience"]),
        key=str(data["key"]),
        title=str(data.get("title", "")),
        lines=tuple(str(line) for line in data.get("lines", ())),
        buttons=tuple(
            tuple(
                Button(
                    label=str(b["label"]),
                    action_id=b.get("action_id"),
                    style=ButtonStyle(b.get("style", ButtonStyle.SECONDARY.value)),
                    url=b.get("url"),
                    disabled=bool(b.get("disabled", False)),
                    web_app=bool(b.get("web_app", False)),
                )
                for b in row
            )
            for row in data.get("buttons", ())
        ),
        platform=str(data.get("platform", "")),
        chat_id=str(data.get("chat_id", "")),
        user_id=data.get("user_id"),
        language=str(data.get("language", DEFAULT_LANGUAGE)),
        fresh=bool(data.get("fresh", False)),
        meta=ViewMeta.from_payload(data.get("meta")),
        picture=picture_from_payload(data["picture"]) if data.get("picture") else None,
        mentions=tuple(Mention(str(m[0]), str(m[1])) for m in data.get("mentions") or ()),
    )
