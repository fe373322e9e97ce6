"""The Discord adapter: interactions in, Actions to the table manager, Views out.

No game decision is taken here. An interaction (slash command or button)
becomes an ``Action`` whose actor is ``interaction.user``; the manager's
``Outcome`` is rendered: refusals as an ephemeral reply, group views as the
room's messages (edited in place by view key), a player's views as
ephemeral messages (or DMs when the player asked for them).

Discord wants every interaction answered within 3 seconds, so verbs that may
run the solver or settle a round are deferred before the manager is called,
and any other one as soon as the manager takes ACK_AFTER seconds.
Private views (ephemerals, DMs) are delivered by ``private.PrivateViews``.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from bot.table.actions import Action, ActionIdError, Outcome, Verb, decode
from bot.views.i18n import t
from bot.views.model import Audience, View, ViewKind

from .private import PrivateViews
from .refs import MessageRef, Registry, is_table_message
from .render import Rendered, prepare
from .turn import PLATFORM, Turn, actor_of, language_of

log = logging.getLogger(__name__)

# Presses that may run the solver, deal, settle or query the history:
# acknowledged (deferred) before the manager is asked.
SLOW_PRESSES = frozenset(
    {
        Verb.START,
        Verb.LEAVE,
        Verb.SUGGEST,
        Verb.APPLY,
        Verb.CONFIRM,
        Verb.DECLARE,
        Verb.LEADERBOARD,
        Verb.VERIFY,
    }
)
# Commands that may deal or auto-arrange (a leaving player's hand): deferred
# privately ("thinking…"); the others answer with their own result at once.
SLOW_COMMANDS = frozenset({Verb.START, Verb.LEAVE})
# Any other action still gets acknowledged when the manager takes this long.
ACK_AFTER = 2.0
# How far back to look for a room's table message after a restart.
RECOVER_HISTORY = 50


def _language_of(outcome: Outcome, interaction: discord.Interaction[Any]) -> str:
    """The room's language for a room's answer (one language per room, in the
    channel and in private: docs/messages.md); the user's own otherwise."""
    if outcome.room_id is not None:
        for view in outcome.views:
            return view.language
    return language_of(interaction)


class DiscordAdapter:
    """Routes interactions to the manager and renders its views."""

    def __init__(self, manager: Any) -> None:
        self.manager = manager
        self.client: discord.Client | None = None
        self.refs = Registry()
        self.private = PrivateViews(self.refs, lambda: self.client)

    # ------------------------------------------------------------ entry points

    async def on_command(
        self, interaction: discord.Interaction[Any], verb: Verb, arg: str | None = None
    ) -> None:
        """A ``/thirteen`` subcommand typed in a channel."""
        turn = Turn(interaction, verb)
        if verb in SLOW_COMMANDS:
            await self._defer(turn)
        action = Action(actor_of(interaction), verb, chat_id=str(interaction.channel_id), arg=arg)
        await self._run(turn, action)

    async def on_press(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A button of any message of ours, old or new (see items.ActionButton)."""
        try:
            room_id, round_no, verb, arg = decode(custom_id)
        except ActionIdError:
            await self._say(
                Turn(interaction, Verb.HELP), t(language_of(interaction), "dc.error.stale")
            )
            return
        turn = Turn(interaction, verb, pressed=interaction.message)
        if turn.pressed is not None:
            turn.pressed_key = self.refs.learn_pressed(
                turn.pressed, room_id, round_no, verb, turn.user_id
            )
        if verb in SLOW_PRESSES:
            await self._defer(turn)
        # In a DM the manager takes the chat from the room.
        chat_id = str(interaction.channel_id) if interaction.guild_id else ""
        action = Action(actor_of(interaction), verb, chat_id, room_id, round_no, arg)
        await self._run(turn, action)

    async def on_hand_dm(
        self, interaction: discord.Interaction[Any], room_id: str, round_no: int
    ) -> None:
        """ "My hand by DM": the hand goes to the player's DMs from now on."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        turn = Turn(interaction, Verb.SHOW_HAND, deferred=True)
        action = Action(
            actor_of(interaction), Verb.SHOW_HAND, str(interaction.channel_id), room_id, round_no
        )
        outcome = await self._handle(turn, action)
        if outcome is None:
            return
        lang = _language_of(outcome, interaction)
        if not outcome.ok:
            await self._say(turn, outcome.reply or t(lang, "dc.error.refused"))
            return
        for view in outcome.views:
            if view.kind is ViewKind.HAND and view.user_id == turn.user_id:
                self.refs.dm_wanted.add(view.key)
                if await self.private.send_dm(view, interaction.user):
                    await self._say(turn, t(lang, "dc.hand.sent_dm"))
                else:
                    self.refs.dm_wanted.discard(view.key)
                    await self._say(turn, t(lang, "dc.hand.dm_failed"))
                    await self.private.new_ephemeral(turn, view)
            else:
                await self._deliver(view, turn)
        await self._finish(turn, None)

    async def sink(self, views: Any) -> None:
        """Views produced without an interaction (timers, AI moves)."""
        for view in views:
            if view.platform and view.platform != PLATFORM:
                continue
            try:
                await self._deliver(view, None)
            except Exception:  # the next view (and the table) must still go out
                log.exception("could not deliver view %s", view.key)

    # ------------------------------------------------------------ one turn

    async def _handle(self, turn: Turn, action: Action) -> Outcome | None:
        """Ask the manager; if it has not answered within ACK_AFTER seconds
        (a busy room lock, a slow database), acknowledge the interaction
        first so Discord does not drop it at 3 seconds."""
        task = asyncio.ensure_future(self.manager.handle(action))
        try:
            done, _ = await asyncio.wait({task}, timeout=ACK_AFTER)
            if not done and not turn.responded:
                await self._defer(turn)
            return await task
        except Exception:
            log.exception("manager failed on %s", action)
            await self._say(turn, t(language_of(turn.interaction), "dc.error.internal"))
            return None

    async def _defer(self, turn: Turn) -> None:
        if turn.pressed is not None:
            await turn.interaction.response.defer()
        else:
            await turn.interaction.response.defer(ephemeral=True, thinking=True)
        turn.deferred = True

    async def _run(self, turn: Turn, action: Action) -> None:
        outcome = await self._handle(turn, action)
        if outcome is None:
            return
        # A refusal may still refresh the actor's hand (e.g. to show why it fouls).
        # The pressed message's own view goes first: it answers the press
        # (an UPDATE_MESSAGE response) before anything is sent elsewhere.
        views = sorted(outcome.views, key=lambda v: v.key != turn.pressed_key)
        for view in views:
            if view.platform and view.platform != PLATFORM:
                continue
            try:
                await self._deliver(view, turn)
            except Exception:  # one view failing must not leave the interaction unanswered
                log.exception("could not deliver view %s", view.key)
        language = _language_of(outcome, turn.interaction)
        if not outcome.ok:
            await self._say(turn, outcome.reply or t(language, "dc.error.refused"))
            return
        if outcome.extra.get("file_text"):
            await self._attach(turn, outcome.extra)
        await self._finish(turn, outcome.reply, language)

    async def _attach(self, turn: Turn, extra: dict[str, str]) -> None:
        """A replay's judge line, as a file to feed `thirteen judge`."""
        file = discord.File(
            io.BytesIO(extra["file_text"].encode()), filename=extra.get("file_name", "round.jsonl")
        )
        interaction = turn.interaction
        if interaction.response.is_done():
            await interaction.followup.send(file=file)
            turn.followed_up = True
        else:
            await interaction.response.send_message(file=file)

    async def _finish(self, turn: Turn, reply: str | None, language: str | None = None) -> None:
        """Make sure the interaction is acknowledged exactly once, with the toast if any."""
        if not turn.responded:
            if reply:
                await turn.interaction.response.send_message(reply, ephemeral=True)
            else:
                await turn.interaction.response.defer()
        elif turn.deferred and not turn.followed_up and turn.pressed is None:
            # A deferred command shows "thinking…" until its first followup.
            await turn.interaction.followup.send(
                reply or t(language or language_of(turn.interaction), "dc.done"), ephemeral=True
            )

    async def _say(self, turn: Turn, text: str) -> None:
        """A short note for the actor alone."""
        interaction = turn.interaction
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
            turn.followed_up = True
        else:
            await interaction.response.send_message(text, ephemeral=True)

    # ------------------------------------------------------------ delivering views

    async def _deliver(self, view: View, turn: Turn | None) -> None:
        if view.audience is Audience.GROUP:
            await self._deliver_group(view, turn)
        elif turn is not None and view.user_id == turn.user_id:
            await self.private.deliver_to_actor(view, turn)
        elif view.kind is ViewKind.HAND:
            await self.private.refresh_hand(view)
        elif view.user_id is not None and view.key in self.refs.dm_wanted:
            await self.private.send_dm_to(view)
        # Any other private view for someone who is not here cannot be shown:
        # Discord has no unprompted ephemerals; the table keeps "my hand".

    async def _deliver_group(self, view: View, turn: Turn | None) -> None:
        rendered = await prepare(view)
        one_off = view.kind is ViewKind.NOTICE or view.fresh
        ref = self.refs.messages.get(view.key)
        if ref is None and view.kind is ViewKind.TABLE and not (turn and turn.verb is Verb.NEW):
            ref = await self._recover(view)
        if (
            turn is not None
            and turn.pressed is not None
            and not one_off
            and view.key == turn.pressed_key
        ):
            await turn.edit_pressed(rendered)
            self.refs.remember(view.key, turn.pressed.channel.id, turn.pressed.id)
            return
        if ref is not None and not one_off:
            try:
                await self._channel_message(ref).edit(**rendered.kwargs())
                return
            except discord.NotFound:
                log.info("message of %s is gone; posting a new one", view.key)
        message = await self._post(view, rendered, turn)
        if view.kind is not ViewKind.NOTICE:
            self.refs.remember(view.key, message.channel.id, message.id)
            if ref is not None and ref.message_id != message.id and view.kind is ViewKind.TABLE:
                await self._retire(ref)

    async def _recover(self, view: View) -> MessageRef | None:
        """After a restart the registry is empty: look for the room's table
        message among the channel's recent messages (once per key), so the
        table keeps being edited in place instead of being posted again."""
        client = self.client
        if (
            view.key in self.refs.searched
            or not view.chat_id
            or client is None
            or client.user is None
        ):
            return None
        self.refs.searched.add(view.key)
        room_id = view.key.split(":", 1)[1]
        channel = client.get_partial_messageable(int(view.chat_id))
        try:
            async for message in channel.history(limit=RECOVER_HISTORY):
                if message.author.id == client.user.id and is_table_message(
                    message, room_id, view.title
                ):
                    self.refs.remember(view.key, message.channel.id, message.id)
                    return self.refs.messages[view.key]
        except discord.HTTPException:
            log.info("cannot read the history of channel %s", view.chat_id)
        return None

    async def _retire(self, ref: MessageRef) -> None:
        """A table message replaced by a fresh one loses its buttons, so the
        channel shows one live table."""
        try:
            await self._channel_message(ref).edit(view=None)
        except discord.HTTPException:
            log.info("could not retire message %s", ref.message_id)

    async def _post(self, view: View, rendered: Rendered, turn: Turn | None) -> discord.Message:
        """A new group message: the command's own response when still unused."""
        if turn is not None and turn.pressed is None and not turn.responded:
            await turn.interaction.response.send_message(**rendered.send_kwargs())
            return await turn.interaction.original_response()
        channel_id = int(view.chat_id) if view.chat_id else None
        if channel_id is None and turn is not None:
            channel_id = turn.interaction.channel_id
        if channel_id is None:
            raise discord.InvalidData(f"no channel for view {view.key}")
        assert self.client is not None
        channel = self.client.get_partial_messageable(channel_id)
        return await channel.send(**rendered.send_kwargs())

    def _channel_message(self, ref: MessageRef) -> discord.PartialMessage:
        assert self.client is not None
        return self.client.get_partial_messageable(ref.channel_id).get_partial_message(
            ref.message_id
        )


__all__ = ["DiscordAdapter", "Turn", "actor_of"]
