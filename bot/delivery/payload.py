"""A View as the JSON an outbox row carries, and back."""

from __future__ import annotations

from typing import Any

from bot.views.model import Audience, Button, ButtonStyle, View, ViewKind


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
        "meta": dict(view.meta),
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
                )
                for b in row
            )
            for row in data.get("buttons", ())
        ),
        platform=str(data.get("platform", "")),
        chat_id=str(data.get("chat_id", "")),
        user_id=data.get("user_id"),
        language=str(data.get("language", "zh-Hans")),
        fresh=bool(data.get("fresh", False)),
        meta={str(k): str(v) for k, v in (data.get("meta") or {}).items()},
    )
