"""Telegram updates -> Actions -> TableManager -> Views -> Outbox.

No game decision is taken here: every command and button press becomes an
``Action`` (the actor from the update, never from callback data) and the
table manager answers. This module only decides how to show the answer.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from telegram import Bot, CallbackQuery, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ContextTypes

from bot.core.verbs import VERBS, Private
from bot.delivery.engine import DeliveryEngine
from bot.delivery.superseded import rounds_of
from bot.i18n import normalize_language, t
from bot.platforms.telegram.deeplink import Payload, parse_payload
from bot.platforms.telegram.errors import call_once_more
from bot.platforms.telegram.membership import can_write_to, is_member
from bot.platforms.telegram.render import NOOP
from bot.platforms.telegram.transport import TelegramPlatform, buttons_shown
from bot.table.actions import Action, ActionIdError, Actor, Outcome, Verb, decode
from bot.table.contract import TableLike
from bot.views.model import Audience, View, ViewKind

log = logging.getLogger(__name__)
# What python-telegram-bot's handlers take: a coroutine function of (update, context).
Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]

_ALERT_LIMIT = 200
# Private messages whose view key this process has looked up (at most this many).
_KNOWN_MESSAGES = 4096


def _language_of(outcome: Outcome, fallback: str | None) -> str:
    """The room's language when the answer belongs to a room (docs/messages.md:
    one language per room, in the group and in private), else the user's."""
    if outcome.room_id is not None:
        for view in outcome.views:
            return view.language
    return normalize_language(fallback)


def actor_of(user: User) -> Actor:
    return Actor(
        platform="telegram", user_id=str(user.id), name=user.full_name, language=user.language_code
    )


class TelegramAdapter:
    def __init__(self, manager: TableLike, platform: TelegramPlatform) -> None:
        self.manager = manager
        self.platform = platform
        self.outbox = platform.outbox
        self.install_sink = True
        # private messages the outbox knows (chat, message id): see _adopt_pressed
        self._known: dict[tuple[str, str], None] = {}

    @property
    def engine(self) -> DeliveryEngine:
        """The delivery engine of this platform's outbox (what the process's
        metrics read)."""
        return self.outbox.engine

    # ---- views produced without an action (timers) ------------------------------------
    async def sink(self, views: Sequence[View]) -> None:
        await self.outbox.submit(views)

    def _seen(self, user: User) -> Actor:
        self.platform.reach.names[str(user.id)] = user.full_name
        return actor_of(user)

    async def _reply(self, message: Message, text: str) -> None:
        await call_once_more(message.reply_text, text=text, do_quote=True)

    # ---- group commands ---------------------------------------------------------------
    def group_command(self, verb: Verb) -> Handler:
        async def handle(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            message, user, chat = (
                update.effective_message,
                update.effective_user,
                update.effective_chat,
            )
            if message is None or user is None or chat is None:
                return
            if message.sender_chat is not None:
                # An anonymous admin or a channel posting as the group: there is
                # no person to seat, so say how to play instead of acting.
                await self._reply(message, t(user.language_code, "tg.anonymous"))
                return
            arg = context.args[0][:32] if VERBS[verb].arg and context.args else None
            if verb is Verb.SET_OPTION:  # /rounds N
                arg = "rounds=" + (context.args[0][:8] if context.args else "")
            action = Action(self._seen(user), verb, chat_id=str(chat.id), arg=arg)
            outcome = await self.manager.handle(action)
            if outcome.room_id:
                self.platform.rooms[outcome.room_id] = str(chat.id)
            if (
                outcome.ok
                and VERBS[verb].private_answer
                and not await can_write_to(context.bot, str(user.id))
            ):
                # The answer is for the private chat, which is not open yet: say
                # where, with the link (nothing is held for a help text).
                link = f"https://t.me/{context.bot.username}"
                language = _language_of(outcome, user.language_code)
                # One group notice per member, edited when asked again (an
                # informational key: the outbox merges repeats), not a reply each time.
                where = View(
                    ViewKind.NOTICE,
                    Audience.GROUP,
                    f"help:open:{user.id}",
                    "",
                    (t(language, "tg.open_private", link=link),),
                    platform="telegram",
                    chat_id=str(chat.id),
                    language=language,
                )
                await self.outbox.submit((where,))
                return
            # A panel asked for by command is posted anew at the bottom of
            # the private chat (presses on it then edit that one).
            await self.outbox.submit(
                dataclasses.replace(v, fresh=True) if v.key.startswith("settings:") else v
                for v in outcome.views
            )
            if not outcome.ok:
                await self._reply(message, outcome.reply or t(user.language_code, "tg.refused"))
                return
            if outcome.file is not None:
                # A replay's judge line, as a file to feed `thirteen judge`.
                await call_once_more(
                    message.reply_document,
                    document=outcome.file.text.encode(),
                    filename=outcome.file.name,
                )
            # A toast only when nothing visible changed in the group: every
            # extra message counts against the group's flood limit.
            if outcome.reply and not any(v.audience is Audience.GROUP for v in outcome.views):
                await self._reply(message, outcome.reply)

        return handle

    async def group_only(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group command typed in the private chat."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        self._seen(user)
        await self.platform.user_opened(str(user.id))
        await self._reply(message, t(user.language_code, "tg.group_only"))

    # ---- private chat -----------------------------------------------------------------
    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/start [payload] in private: the chat is open now, so deliver what
        was held, then act on the deep link's payload."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        actor = self._seen(user)
        held = await self.platform.user_opened(actor.user_id)
        payload = parse_payload(context.args[0] if context.args else None)
        if payload is None:
            if not held:
                await self._reply(message, t(user.language_code, "tg.welcome"))
            return
        room_id = payload.room_id
        chat_id = ""  # a private chat: the manager asks who is at the table
        if payload.kind is Payload.JOIN:
            vouched = await self._vouch(context.bot, actor, room_id)
            if vouched is None:
                await self._reply(message, t(user.language_code, "err.not_member"))
                return
            outcome = await self.manager.handle(
                Action(actor, Verb.JOIN, chat_id=vouched, room_id=room_id)
            )
            if not outcome.ok:
                await self._reply(message, outcome.reply or t(user.language_code, "tg.refused"))
                return
            await self.outbox.submit(outcome.views)
            await self._reply(message, outcome.reply or t(user.language_code, "tg.joined_private"))
        elif not held:
            outcome = await self.manager.handle(
                Action(actor, Verb.SHOW_HAND, chat_id=chat_id, room_id=room_id)
            )
            if not outcome.ok:
                await self._reply(message, outcome.reply or t(user.language_code, "tg.refused"))
                return
            # Asked for explicitly: post it at the bottom of the chat.
            await self.outbox.submit(
                dataclasses.replace(v, fresh=True) if v.audience is Audience.PLAYER else v
                for v in outcome.views
            )

    async def chat_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The user's private chat with the bot changed: unblocked (or
        started), it is open again, so deliver what was held for them.
        Besides /start and writing to the bot, this is the only way a person
        becomes reachable; never a press in the private chat, which is made
        on a message the bot could send there."""
        change, user = update.my_chat_member, update.effective_user
        if change is None or user is None or change.chat.type != ChatType.PRIVATE:
            return
        if change.new_chat_member.status == ChatMemberStatus.MEMBER:
            self._seen(user)
            await self.platform.user_opened(str(user.id))

    async def private_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        self._seen(user)
        if not await self.platform.user_opened(str(user.id)):
            await self._reply(message, t(user.language_code, "tg.welcome"))

    # ---- buttons ----------------------------------------------------------------------
    async def _answer(self, query: CallbackQuery, text: str | None, *, alert: bool = False) -> None:
        await call_once_more(
            query.answer, text=text[:_ALERT_LIMIT] if text else None, show_alert=alert
        )

    async def press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        language = normalize_language(user.language_code)
        try:
            room_id, round_no, verb, arg = decode(query.data or "")
        except ActionIdError:
            await self._answer(query, t(language, "tg.bad_button"), alert=True)
            return
        actor = self._seen(user)
        message = query.message if isinstance(query.message, Message) else None
        private = message is None or message.chat.type == ChatType.PRIVATE
        # The chat the press came from; "" for the private chat, where the
        # manager lets only who is at the table act (a join is vouched for here).
        chat_id = "" if message is None or private else str(message.chat.id)
        if private and verb is Verb.JOIN:
            vouched = await self._vouch(context.bot, actor, room_id)
            if vouched is None:
                await self._answer(query, t(language, "err.not_member"), alert=True)
                return
            chat_id = vouched
        action = Action(actor, verb, chat_id=chat_id, room_id=room_id, round_no=round_no, arg=arg)
        outcome = await self.manager.handle(action)
        if outcome.ok and VERBS[verb].private_answer and not private:
            # The answer goes to the private chat; an alert says where (with
            # the link when the bot may not write there yet, and then nothing
            # is sent: the group is not told to open a chat for a help text).
            room_language = _language_of(outcome, language)
            if not await can_write_to(context.bot, actor.user_id):
                link = f"https://t.me/{context.bot.username}"
                text = t(room_language, "tg.open_private", link=link)
                await self._answer(query, text, alert=True)
                return
            await self._answer(query, t(room_language, "tg.sent_private"))
            await self.outbox.submit(outcome.views)
            return
        if outcome.ok:
            await self._answer(query, outcome.reply)
        else:
            await self._answer(query, outcome.reply or t(language, "tg.refused"), alert=True)
            if message is not None and outcome.stale:
                # Game buttons of an old round may still be up (e.g. a
                # settlement whose post was never confirmed, so its message
                # was not known when the next round took its buttons; last
                # round's private result, whose Next round is left up at the
                # deal): those of the pressed message go now. The data pressed says nothing
                # about the message (any data can be sent for any message):
                # the live table keeps its buttons.
                await self.outbox.retire_pressed(
                    str(message.chat_id),
                    str(message.message_id),
                    rounds_of(self.manager),
                    buttons_shown(message),
                )
        views = outcome.views
        if message is not None and private and views:
            await self._adopt_pressed(message, views, actor.user_id, verb)
        if verb is Verb.SHOW_HAND and not private:
            # "My hand" pressed in the group: post it at the bottom of the
            # private chat rather than editing a message scrolled far up.
            views = tuple(
                dataclasses.replace(v, fresh=True) if v.audience is Audience.PLAYER else v
                for v in views
            )
        # A refusal may still carry a view (the hand showing why an
        # arrangement was refused); nothing in the game changed.
        await self.outbox.submit(views)

    async def _vouch(self, bot: Bot, actor: Actor, room_id: str) -> str | None:
        """The room's group when ``actor`` belongs to it (a join from the
        private chat may then name it), None when not; "" when there is no
        such Telegram room (the manager then says so)."""
        room = await self.manager.room(room_id)
        if room is None or room.platform != "telegram":
            return ""
        chat_id = room.chat_id
        return chat_id if await is_member(bot, chat_id, actor.user_id) else None

    async def _adopt_pressed(
        self, message: Message, views: Sequence[View], user_id: str, verb: Verb
    ) -> None:
        """The answer to a press on a private message edits that message.
        The outbox knows which view each message it sent shows; a message
        it has no record of (sent by an older version of the bot) is taken
        as the view the verb pressed redraws (``VerbInfo.private``). A
        message once known stays known: the database is asked once per
        message and process, not at every tap."""
        chat, message_id = str(message.chat_id), str(message.message_id)
        if (chat, message_id) in self._known:
            return
        if await self.outbox.key_of(chat, message_id) is None:
            pressed = [v for v in views if self._is_pressed_message(v, user_id, verb)]
            if not pressed:
                return
            for view in pressed:
                await self.outbox.adopt(view.key, chat, message_id)
        self._known[(chat, message_id)] = None
        if len(self._known) > _KNOWN_MESSAGES:
            del self._known[next(iter(self._known))]

    @staticmethod
    def _is_pressed_message(view: View, user_id: str, verb: Verb) -> bool:
        """Which view is the private message that was pressed, judged by
        the verb pressed (for a message the outbox has no record of)."""
        if view.fresh or view.audience is not Audience.PLAYER or view.user_id != user_id:
            return False
        if view.key.startswith("hand:"):
            return VERBS[verb].private is Private.HAND
        return view.key.startswith("settings:") and VERBS[verb].private is Private.PANEL

    async def other_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Callback data that is not an action id: a disabled button (no-op)
        or forged/ancient data (a short alert; nothing changes)."""
        query, user = update.callback_query, update.effective_user
        if query is None:
            return
        if query.data == NOOP:
            await self._answer(query, None)
            return
        language = normalize_language(user.language_code if user else None)
        await self._answer(query, t(language, "tg.bad_button"), alert=True)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("error while handling an update", exc_info=context.error)
        if isinstance(update, Update) and update.callback_query is not None:
            language = normalize_language(
                update.effective_user.language_code if update.effective_user else None
            )
            try:
                await update.callback_query.answer(t(language, "tg.error"), show_alert=True)
            except Exception:  # the query may already be answered
                log.debug("could not answer the failed callback query", exc_info=True)
