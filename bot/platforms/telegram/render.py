"""View -> Telegram message: plain text and an InlineKeyboardMarkup.

Text goes out without a parse mode: views carry user names and card symbols,
and plain text can never fail to parse; a mention is an entity over the
name (``mention_entities``). Buttons keep their action ids as
callback_data untouched (the table manager made them, ``decode`` reads them
back); disabled buttons point at a no-op so a tap only clears the spinner.
"""

from __future__ import annotations

import json

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MessageEntity,
    User,
    WebAppInfo,
)
from telegram.constants import MessageLimit

from bot.i18n import t
from bot.platforms.telegram.deeplink import Payload, deep_link
from bot.table.actions import Verb
from bot.views.model import Audience, Button, View
from bot.web.links import PageLinks

NOOP = "noop"


def telegram_length(text: str) -> int:
    """A text's length as Telegram counts it: UTF-16 code units (a joker
    🃏 or any emoji beyond the Basic Multilingual Plane counts twice)."""
    return len(text.encode("utf-16-le")) // 2


def _prefix(text: str, units: int) -> str:
    """The longest start of ``text`` within ``units`` UTF-16 code units."""
    if telegram_length(text) <= units:
        return text
    cut = text[:units]  # at most ``units`` code points; trim astral overflow
    while telegram_length(cut) > units:
        cut = cut[:-1]
    return cut


def render_text(view: View) -> str:
    text = view.text.strip() or "…"
    limit = MessageLimit.MAX_TEXT_LENGTH
    return text if telegram_length(text) <= limit else _prefix(text, limit - 1) + "…"


def render_caption(view: View) -> str:
    """A photo's caption: the view's text, cut at Telegram's 1024 characters
    on a line boundary (the picture carries the rest; the deck and salt at
    the end of a long settlement stay one press away on "verify")."""
    text = view.text.strip() or "…"
    limit = MessageLimit.CAPTION_LENGTH
    if telegram_length(text) <= limit:
        return text
    cut = _prefix(text, limit - 2)
    if "\n" in cut:
        cut = cut[: cut.rindex("\n")]
    return cut + "\n…"


def mention_entities(view: View, text: str) -> list[MessageEntity] | None:
    """The text's mentions (``view.mentions``) as Telegram entities over
    each name, so the text stays plain (no parse mode to escape for) and
    the person is notified. Names are found from the end of the text, last
    mention first: a notice lists them last (``…：Ann, Bo``), so a name
    that also occurs earlier in the text is still marked where it is
    listed. A name not in the (maybe cut) text is left unmarked."""
    found: list[MessageEntity] = []
    end = len(text)
    for mention in reversed(view.mentions):
        at = text.rfind(mention.name, 0, end) if mention.name else -1
        if at < 0 or not mention.user_id.isdigit():
            continue
        end = at
        user = User(id=int(mention.user_id), first_name=mention.name, is_bot=False)
        found.append(
            MessageEntity(
                MessageEntity.TEXT_MENTION,
                offset=telegram_length(text[:at]),
                length=telegram_length(mention.name),
                user=user,
            )
        )
    return sorted(found, key=lambda e: e.offset) or None


def _button(button: Button) -> InlineKeyboardButton:
    if button.url:
        return InlineKeyboardButton(button.label, url=button.url)
    if button.disabled or not button.action_id:
        return InlineKeyboardButton(button.label, callback_data=NOOP)
    return InlineKeyboardButton(button.label, callback_data=button.action_id)


def _page_button(
    view: View, button: Button, bot_username: str | None, links: PageLinks | None
) -> InlineKeyboardButton | None:
    """The arranging page: a Mini App button in private (Telegram allows
    ``web_app`` buttons only there), a link to the bot's Mini App in the
    group; None where the page is off."""
    room_id = view.view_key.room
    round_no = view.meta.round
    # Telegram opens Mini Apps over HTTPS only (a plain-http WEBAPP_URL is a
    # local test's: the page is served, the chats get no button).
    if links is None or room_id is None or round_no is None or not links.secure:
        return None
    if view.audience is Audience.PLAYER:
        url = links.telegram_private(room_id, round_no)
        return InlineKeyboardButton(button.label, web_app=WebAppInfo(url))
    link = links.telegram_group(bot_username or "", room_id, round_no)
    return InlineKeyboardButton(button.label, url=link) if link else None


def render_markup(
    view: View, bot_username: str | None, links: PageLinks | None = None
) -> InlineKeyboardMarkup | None:
    rows = [
        [
            shown
            for b in row
            if (shown := _page_button(view, b, bot_username, links) if b.web_app else _button(b))
        ]
        for row in view.buttons
        if row
    ]
    rows = [row for row in rows if row]
    # A lobby that offers Join (the table before the first round, a
    # settlement after one) also offers joining in private.
    join = view.acting(Verb.JOIN) if view.audience is Audience.GROUP else None
    if join is not None and bot_username:
        # Joining through the private chat also opens it, so the hand can be
        # sent there at the deal without a second detour.
        label = t(view.language, "tg.join_private")
        rows.append(
            [InlineKeyboardButton(label, url=deep_link(bot_username, Payload.JOIN, join[0]))]
        )
    return InlineKeyboardMarkup(rows) if rows else None


def fingerprint(text: str, markup: InlineKeyboardMarkup | None, picture: str | None = None) -> str:
    """What a message shows, to skip edits that would change nothing (the
    picture by its input: equal input, equal picture, nothing rendered)."""
    return json.dumps(
        [text, markup.to_dict() if markup else None, picture], sort_keys=True, ensure_ascii=False
    )
