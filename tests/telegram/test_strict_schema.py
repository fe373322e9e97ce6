"""The strict fake Bot API refuses what Telegram refuses.

Requests are built the way the bot builds them (python-telegram-bot's own
request serialisation) or written out as form fields, and checked against
the vendored Bot API schema (tests/telegram/strict_schema.py)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.platforms.telegram.render import render_caption, render_text, telegram_length
from bot.views.model import Audience, View, ViewKind
from tests.telegram.strict_schema import Refusal, Request, api_version, check_request


def _png(width: int = 40, height: int = 30) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), "white").save(out, "PNG")
    return out.getvalue()


def ptb_request(method: str, **params: Any) -> Request:
    """The request python-telegram-bot sends for ``method(**params)``."""
    data = RequestData([RequestParameter.from_input(k, v) for k, v in params.items()])
    uploads = {name: part[1] for name, part in (data.multipart_data or {}).items()}
    return Request(method, dict(data.json_parameters), uploads)


def refusal(request: Request) -> str:
    with pytest.raises(Refusal) as caught:
        check_request(request)
    return caught.value.description


def keyboard(**button: Any) -> str:
    return json.dumps({"inline_keyboard": [[{"text": "Go", **button}]]})


def test_the_vendored_schema_is_bot_api_10_1() -> None:
    assert api_version() == "Bot API 10.1"


def test_an_uploaded_photo_inside_input_media_needs_its_attach_name() -> None:
    """The bug Telegram refused 91 times in one game: an InputFile inside an
    InputMedia without ``attach`` is serialised with no ``media`` field."""
    png = _png()
    broken = InputMediaPhoto(InputFile(png, filename="hand.png"), caption="Your hand")
    request = ptb_request("editMessageMedia", chat_id=5, message_id=7, media=broken)
    assert refusal(request) == "Bad Request: can't parse InputMedia: Can't find field \"media\""
    fixed = InputMediaPhoto(png, caption="Your hand", filename="hand.png")
    checked = check_request(ptb_request("editMessageMedia", chat_id=5, message_id=7, media=fixed))
    assert checked["media"]["media"].startswith("attach://")


def test_attach_names_a_part_of_the_request() -> None:
    media = json.dumps({"type": "photo", "media": "attach://missing"})
    request = Request("editMessageMedia", {"chat_id": "5", "message_id": "7", "media": media}, {})
    assert "no part 'missing'" in refusal(request)


def test_an_upload_that_is_not_an_image_is_refused() -> None:
    request = Request("sendPhoto", {"chat_id": "5"}, {"photo": b"\x89PNG not really"})
    assert refusal(request) == "Bad Request: IMAGE_PROCESS_FAILED"
    wide = Request("sendPhoto", {"chat_id": "5"}, {"photo": _png(2100, 100)})
    assert refusal(wide) == "Bad Request: PHOTO_INVALID_DIMENSIONS"
    assert check_request(Request("sendPhoto", {"chat_id": "5"}, {"photo": _png()}))


@pytest.mark.parametrize(
    ("method", "fields", "expected"),
    [
        ("sendMessage", {"chat_id": "5", "text": "x" * 4097}, "message is too long"),
        # Telegram counts UTF-16 code units: 2049 astral characters are 4098 units.
        ("sendMessage", {"chat_id": "5", "text": "🂡" * 2049}, "message is too long"),
        ("sendMessage", {"chat_id": "5", "text": "  \n "}, "message text is empty"),
        ("sendMessage", {"text": "hi"}, "parameter 'chat_id' is required"),
        ("sendMessage", {"chat_id": "5", "text": "hi", "colour": "red"}, "unknown parameter"),
        ("sendMessage", {"chat_id": "5", "text": "hi", "disable_notification": "yes"}, "Boolean"),
        ("editMessageText", {"chat_id": "5", "text": "hi"}, "parameter 'message_id' is required"),
        ("editMessageCaption", {"chat_id": "5", "message_id": "x"}, "must be of type Integer"),
        (
            "editMessageCaption",
            {"chat_id": "5", "message_id": "1", "caption": "字" * 1025},
            "message caption is too long",
        ),
        ("answerCallbackQuery", {"callback_query_id": "1", "text": "x" * 201}, "MESSAGE_TOO_LONG"),
        ("sendMesage", {"chat_id": "5", "text": "hi"}, "Not Found"),
        (
            "sendMessage",
            {"chat_id": "5", "text": "hi", "reply_markup": keyboard(callback_data="x" * 65)},
            "BUTTON_DATA_INVALID",
        ),
        (
            "sendMessage",
            {"chat_id": "5", "text": "hi", "reply_markup": keyboard()},
            "Text buttons are unallowed in the inline keyboard",
        ),
        (
            "sendMessage",
            {"chat_id": "5", "text": "hi", "reply_markup": keyboard(callback_data="a", url="https://t.me/x")},
            "exactly one action expected",
        ),
        (
            "sendMessage",
            {"chat_id": "5", "text": "hi", "reply_markup": keyboard(url="t.me/x")},
            "URL 't.me/x' is invalid",
        ),
        (
            "sendMessage",
            {"chat_id": "-100", "text": "hi", "reply_markup": keyboard(web_app={"url": "https://a.example/app"})},
            "BUTTON_TYPE_INVALID",
        ),
        (
            "sendMessage",
            {"chat_id": "5", "text": "hi", "reply_markup": keyboard(web_app={"url": "http://a.example/app"})},
            "Only HTTPS links are allowed",
        ),
        (
            "sendMessage",
            {"chat_id": "5", "text": "hi", "reply_markup": json.dumps({"inline_keyboard": {"a": 1}})},
            'field "inline_keyboard" must be an Array',
        ),
        (
            "setMyCommands",
            {"commands": json.dumps([{"command": "newgame", "description": ""}])},
            "BotCommand.description is empty",
        ),
    ],
)  # fmt: skip
def test_refused_as_telegram_refuses(method: str, fields: dict[str, str], expected: str) -> None:
    assert expected in refusal(Request(method, fields, {}))


def test_what_the_bot_sends_passes() -> None:
    markup = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton("♠A", callback_data="r1:1:pk:0")],
            [InlineKeyboardButton("Join", url="https://t.me/bot?start=j_abc")],
        ]
    )
    text = "字" * 4096  # the limit itself is allowed
    checked = check_request(
        ptb_request("sendMessage", chat_id=-100, text=text, reply_markup=markup)
    )
    assert checked["chat_id"] == -100 and len(checked["reply_markup"]["inline_keyboard"]) == 2
    inline = ptb_request("editMessageText", inline_message_id="abc", text="hi")
    assert check_request(inline)["inline_message_id"] == "abc"  # chat_id not needed then
    answer = ptb_request(
        "answerCallbackQuery", callback_query_id="1", text="x" * 200, show_alert=True
    )
    assert check_request(answer)["show_alert"] is True


@pytest.mark.parametrize("line", ["🃏 joker " * 3, "字" * 30, "x" * 40])
def test_long_texts_are_cut_within_telegram_s_count(line: str) -> None:
    """Texts and captions are cut by UTF-16 code units, as Telegram counts
    them, so a long view full of jokers is still a request Telegram takes."""
    view = View(ViewKind.NOTICE, Audience.GROUP, "info:x", "", tuple([line] * 400))
    text, caption = render_text(view), render_caption(view)
    assert check_request(Request("sendMessage", {"chat_id": "-5", "text": text}, {}))
    photo = Request("sendPhoto", {"chat_id": "-5", "caption": caption}, {"photo": _png()})
    assert check_request(photo)
    assert caption.endswith("\n…") and text.endswith("…")
    assert telegram_length(text) == 4096 or telegram_length(text) == 4095
    assert 1024 - telegram_length(line) - 3 < telegram_length(caption) <= 1024  # at a line end
