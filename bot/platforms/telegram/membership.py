"""What only Telegram knows: who is a member of a group, and who opened a
private chat with the bot.

A join from the private chat (a deep link ``/start j<room>``, or a join
button pressed there) is vouched for only after ``getChatMember`` says the
person belongs to the room's group; and a group command whose answer is
private (``/stats``) first checks, with an invisible ``sendChatAction``,
that the bot may write to the person at all.
"""

from __future__ import annotations

import logging

from telegram import Bot, ChatMember
from telegram.constants import ChatAction
from telegram.error import Forbidden, TelegramError

log = logging.getLogger(__name__)

MEMBER_STATUSES = {ChatMember.OWNER, ChatMember.ADMINISTRATOR, ChatMember.MEMBER}


async def is_member(bot: Bot, chat_id: str, user_id: str) -> bool:
    """Does ``user_id`` belong to the group ``chat_id`` now? No on any doubt."""
    try:
        member = await bot.get_chat_member(int(chat_id), int(user_id))
    except (TelegramError, ValueError):
        log.info("membership of %s in %s could not be checked", user_id, chat_id)
        return False
    if member.status == ChatMember.RESTRICTED:
        return bool(getattr(member, "is_member", False))
    return member.status in MEMBER_STATUSES


async def can_write_to(bot: Bot, user_id: str) -> bool:
    """Has the person opened a private chat with the bot (may it write first)?"""
    try:
        await bot.send_chat_action(int(user_id), ChatAction.TYPING)
    except Forbidden:
        return False
    except TelegramError:
        return True  # not a refusal: let the delivery try and report
    return True
