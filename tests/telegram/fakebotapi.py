"""A fake Telegram Bot API HTTP server (aiohttp) for end-to-end tests, as
strict as Telegram.

The real python-telegram-bot client talks to it over HTTP (``base_url``
pointed at ``http://127.0.0.1:<port>/bot``). Every request is first checked
against the Bot API's own schema (tests/telegram/strict_schema.py: methods,
parameter names and types, nested objects, ``attach://`` parts, documented
limits) and refused the way Telegram refuses; refusals are kept in
``refused`` and the ``api`` fixture fails a test that caused one it did not
expect. It records every call, keeps the messages it "sent" (so a test can
read a message's text and press its buttons), answers getUpdates with
injected updates, and can be told to fail: 403 Forbidden for users who never
opened the bot, 429 with ``retry_after``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.telegram.strict_schema import Refusal, Request, check_request

BOT_ID = 7000000001
BOT_USERNAME = "thirteen_test_bot"
# Parameters PTB sends JSON-encoded inside the form body.
_JSON_FIELDS = {
    "reply_markup",
    "commands",
    "scope",
    "allowed_updates",
    "link_preview_options",
    "reply_parameters",
    "entities",
    "media",
    "caption_entities",
}


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    status: int = 200


@dataclass
class StoredMessage:
    chat_id: int
    message_id: int
    text: str
    reply_markup: dict[str, Any] | None
    edits: int = 0
    # A photo message: its PNG (``text`` is then the caption); every picture
    # it has shown, in order (the first sent, then each editMessageMedia).
    photo: bytes | None = None
    photos: list[bytes] = field(default_factory=list)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [b for row in rows for b in row]


@dataclass
class FakeBotAPI:
    """The server's state. ``opened`` holds the user ids that have started a
    private chat with the bot; sending to any other private chat is refused
    with 403, as Telegram does."""

    calls: list[Call] = field(default_factory=list)
    messages: dict[tuple[int, int], StoredMessage] = field(default_factory=dict)
    opened: set[int] = field(default_factory=set)
    # method name -> retry_after seconds for the next call of that method (once)
    fail_429_once: dict[str, int] = field(default_factory=dict)
    # method name -> [how many calls in a row to refuse with 429, retry_after]
    fail_429_times: dict[str, list[int]] = field(default_factory=dict)
    # Called with (method, params) before a call is handled / with (method,
    # params, result) after it was handled and before the answer goes out:
    # tests kill the bot process there (a send that "may have succeeded").
    # (before_call returns True to drop the call unhandled: the caller is gone)
    before_call: Callable[[str, dict[str, Any]], bool] | None = None
    after_call: Callable[[str, dict[str, Any], Any], None] | None = None
    # Seconds to hold a handled call's answer (the call took effect; a bot
    # whose read timeout runs out first never hears of it): 0 for none.
    hold_answer: Callable[[str, dict[str, Any]], float] | None = None
    port: int = 0
    webhook: dict[str, Any] | None = None  # the last setWebhook call's parameters
    # group chat id -> supergroup id it was upgraded to (calls to the old id fail)
    migrated: dict[int, int] = field(default_factory=dict)
    # group chat id -> its members' user ids; in a group not listed everyone is a member
    members: dict[int, set[int]] = field(default_factory=dict)
    # sendDocument: (chat id, file name, bytes)
    documents: list[tuple[int, str, bytes]] = field(default_factory=list)
    # Tokens Telegram does not know (revoked, mistyped): every call 401s.
    rejected_tokens: set[str] = field(default_factory=set)
    # Requests refused by the schema check: always a bug of the bot's.
    refused: list[Call] = field(default_factory=list)
    _updates: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    _message_ids: itertools.count = field(default_factory=lambda: itertools.count(100))
    _update_ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _runner: web.AppRunner | None = None

    # ---- lifecycle -----------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("POST", "/bot{token}/{method}", self._dispatch)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    # ---- what the tests read -----------------------------------------------------
    def calls_of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def chat_messages(self, chat_id: int) -> list[StoredMessage]:
        return [m for (c, _), m in sorted(self.messages.items()) if c == chat_id]

    def last_message(self, chat_id: int) -> StoredMessage | None:
        msgs = self.chat_messages(chat_id)
        return msgs[-1] if msgs else None

    def next_update_id(self) -> int:
        return next(self._update_ids)

    def inject(self, update: dict[str, Any]) -> None:
        """Queue an update for the next getUpdates."""
        self._updates.put_nowait(update)

    # ---- the Bot API ---------------------------------------------------------------
    async def _dispatch(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.match_info["token"] in self.rejected_tokens:
            self.calls.append(Call(method, {}, 401))
            return _error(401, "Unauthorized")
        form = await request.post()
        params: dict[str, Any] = {}
        raw: dict[str, str] = {}
        files: dict[str, bytes] = {}
        names: dict[str, str] = {}
        for name, value in form.items():
            if isinstance(value, web.FileField):  # an uploaded file (photo, document)
                files[name] = value.file.read()
                names[name] = value.filename
                continue
            raw[name] = text = str(value)
            params[name] = json.loads(text) if name in _JSON_FIELDS else text
        if files:
            params["_files"] = files
            params["_names"] = names
        try:
            check_request(Request(method, raw, files))
        except Refusal as refusal:
            call = Call(method, params, refusal.status)
            call.params["_refusal"] = refusal.description
            self.calls.append(call)
            self.refused.append(call)
            return _error(refusal.status, refusal.description)
        if self.before_call is not None and self.before_call(method, params):
            return _error(500, "Internal Server Error: the caller was killed")
        retry = self.fail_429_once.pop(method, None)
        times = self.fail_429_times.get(method)
        if times is not None and times[0] > 0:
            times[0] -= 1
            retry = times[1]
        if retry is not None:
            self.calls.append(Call(method, params, 429))
            return _error(429, f"Too Many Requests: retry after {retry}", retry_after=retry)
        old_chat = (
            int(params["chat_id"]) if str(params.get("chat_id", "")).lstrip("-").isdigit() else 0
        )
        if old_chat in self.migrated:
            self.calls.append(Call(method, params, 400))
            return _error(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                migrate_to_chat_id=self.migrated[old_chat],
            )
        handler = getattr(self, f"_m_{method}", None)
        if handler is None:
            self.calls.append(Call(method, params, 404))
            return _error(404, "Not Found: method not found")
        status, result = await handler(params)
        self.calls.append(Call(method, params, status))
        if self.after_call is not None:
            self.after_call(method, params, result)
        if self.hold_answer is not None and (delay := self.hold_answer(method, params)):
            await asyncio.sleep(delay)
        if status != 200:
            return _error(status, result)
        return web.json_response({"ok": True, "result": result})

    def _chat(self, chat_id: int) -> dict[str, Any]:
        if chat_id < 0:
            return {"id": chat_id, "type": "supergroup", "title": "Thirteen test group"}
        return {"id": chat_id, "type": "private", "first_name": f"user{chat_id}"}

    def _message_json(self, msg: StoredMessage) -> dict[str, Any]:
        out: dict[str, Any] = {
            "message_id": msg.message_id,
            "date": int(time.time()),
            "chat": self._chat(msg.chat_id),
            "from": {
                "id": BOT_ID,
                "is_bot": True,
                "first_name": "Thirteen",
                "username": BOT_USERNAME,
            },
        }
        if msg.photo is not None:
            out["photo"] = [
                {
                    "file_id": f"photo-{msg.message_id}-{len(msg.photos)}",
                    "file_unique_id": f"u{msg.message_id}-{len(msg.photos)}",
                    "width": 718,
                    "height": 782,
                }
            ]
            out["caption"] = msg.text
        else:
            out["text"] = msg.text
        if msg.reply_markup:
            out["reply_markup"] = msg.reply_markup
        return out

    async def _m_getMe(self, params: dict[str, Any]) -> tuple[int, Any]:
        return 200, {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "Thirteen",
            "username": BOT_USERNAME,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    async def _m_deleteWebhook(self, params: dict[str, Any]) -> tuple[int, Any]:
        self.webhook = None
        return 200, True

    async def _m_setWebhook(self, params: dict[str, Any]) -> tuple[int, Any]:
        self.webhook = params
        return 200, True

    async def _m_setMyCommands(self, params: dict[str, Any]) -> tuple[int, Any]:
        return 200, True

    async def _m_answerCallbackQuery(self, params: dict[str, Any]) -> tuple[int, Any]:
        return 200, True

    async def _m_getChat(self, params: dict[str, Any]) -> tuple[int, Any]:
        return 200, self._chat(int(params["chat_id"]))

    async def _m_getChatMember(self, params: dict[str, Any]) -> tuple[int, Any]:
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        user = {"id": user_id, "is_bot": False, "first_name": f"user{user_id}"}
        member = chat_id not in self.members or user_id in self.members[chat_id]
        return 200, {"status": "member" if member else "left", "user": user}

    async def _m_sendChatAction(self, params: dict[str, Any]) -> tuple[int, Any]:
        refused = self._refused(int(params["chat_id"]))
        return (403, refused) if refused else (200, True)

    async def _m_getUpdates(self, params: dict[str, Any]) -> tuple[int, Any]:
        timeout = float(params.get("timeout", 0) or 0)
        try:
            first = await asyncio.wait_for(self._updates.get(), timeout=min(timeout, 1.0) or 0.01)
        except TimeoutError:
            return 200, []
        batch = [first]
        while not self._updates.empty():
            batch.append(self._updates.get_nowait())
        return 200, batch

    def _refused(self, chat_id: int) -> str | None:
        if chat_id > 0 and chat_id not in self.opened:
            return "Forbidden: bot can't initiate conversation with a user"
        return None

    async def _m_sendMessage(self, params: dict[str, Any]) -> tuple[int, Any]:
        chat_id = int(params["chat_id"])
        refused = self._refused(chat_id)
        if refused:
            return 403, refused
        msg = StoredMessage(
            chat_id, next(self._message_ids), params["text"], params.get("reply_markup")
        )
        self.messages[(chat_id, msg.message_id)] = msg
        return 200, self._message_json(msg)

    async def _m_sendDocument(self, params: dict[str, Any]) -> tuple[int, Any]:
        chat_id = int(params["chat_id"])
        refused = self._refused(chat_id)
        if refused:
            return 403, refused
        filename, data = params["_names"]["document"], params["_files"]["document"]
        self.documents.append((chat_id, filename, data))
        msg = StoredMessage(chat_id, next(self._message_ids), "", None)
        self.messages[(chat_id, msg.message_id)] = msg
        out = self._message_json(msg)
        out["document"] = {
            "file_id": f"doc{msg.message_id}",
            "file_unique_id": f"u{msg.message_id}",
            "file_name": filename,
        }
        return 200, out

    def _find(self, params: dict[str, Any]) -> StoredMessage | None:
        return self.messages.get((int(params["chat_id"]), int(params["message_id"])))

    def _upload(self, params: dict[str, Any], field_value: Any) -> bytes | None:
        """The bytes of an uploaded file: a multipart part, named directly or
        through ``attach://<name>``."""
        files = params.get("_files", {})
        if isinstance(field_value, str) and field_value.startswith("attach://"):
            return files.get(field_value.removeprefix("attach://"))
        for data in files.values():
            return data
        return None

    async def _m_sendPhoto(self, params: dict[str, Any]) -> tuple[int, Any]:
        chat_id = int(params["chat_id"])
        refused = self._refused(chat_id)
        if refused:
            return 403, refused
        png = self._upload(params, params.get("photo"))
        if not png or not png.startswith(b"\x89PNG"):
            return 400, "Bad Request: there is no photo in the request"
        msg = StoredMessage(
            chat_id,
            next(self._message_ids),
            params.get("caption", ""),
            params.get("reply_markup"),
            photo=png,
            photos=[png],
        )
        self.messages[(chat_id, msg.message_id)] = msg
        return 200, self._message_json(msg)

    async def _m_editMessageMedia(self, params: dict[str, Any]) -> tuple[int, Any]:
        msg = self._find(params)
        if msg is None:
            return 400, "Bad Request: message to edit not found"
        media = params.get("media") or {}
        png = self._upload(params, media.get("media"))
        if msg.photo is None:
            return 400, "Bad Request: there is no media in the message to edit"
        if not png or not png.startswith(b"\x89PNG"):
            return 400, "Bad Request: there is no photo in the request"
        msg.photo = png
        msg.photos.append(png)
        msg.text = media.get("caption", "")
        msg.reply_markup = params.get("reply_markup")
        msg.edits += 1
        return 200, self._message_json(msg)

    async def _m_editMessageCaption(self, params: dict[str, Any]) -> tuple[int, Any]:
        msg = self._find(params)
        if msg is None:
            return 400, "Bad Request: message to edit not found"
        if msg.photo is None:
            return 400, "Bad Request: there is no caption in the message to edit"
        markup = params.get("reply_markup")
        if msg.text == params.get("caption", "") and msg.reply_markup == markup:
            return 400, "Bad Request: message is not modified"
        msg.text, msg.reply_markup = params.get("caption", ""), markup
        msg.edits += 1
        return 200, self._message_json(msg)

    async def _m_editMessageText(self, params: dict[str, Any]) -> tuple[int, Any]:
        msg = self._find(params)
        if msg is None:
            return 400, "Bad Request: message to edit not found"
        if msg.photo is not None:
            return 400, "Bad Request: there is no text in the message to edit"
        markup = params.get("reply_markup")
        if msg.text == params["text"] and msg.reply_markup == markup:
            return 400, "Bad Request: message is not modified"
        msg.text, msg.reply_markup = params["text"], markup
        msg.edits += 1
        return 200, self._message_json(msg)

    async def _m_editMessageReplyMarkup(self, params: dict[str, Any]) -> tuple[int, Any]:
        msg = self._find(params)
        if msg is None:
            return 400, "Bad Request: message to edit not found"
        markup = params.get("reply_markup")
        if markup == msg.reply_markup or (not markup and not msg.reply_markup):
            return 400, "Bad Request: message is not modified"
        msg.reply_markup = markup
        msg.edits += 1
        return 200, self._message_json(msg)


def _error(status: int, description: str, **parameters: Any) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if parameters:
        body["parameters"] = parameters
    return web.json_response(body, status=status)
