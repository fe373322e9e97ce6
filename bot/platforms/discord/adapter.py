"""The Discord adapter: interactions in, Actions to the table manager, Views out.

No game decision is taken here. An interaction (slash command or button)
becomes an ``Action`` whose actor is ``interaction.user``; the manager's
``Outcome`` is rendered: refusals as an ephemeral reply, group views as the
room's messages, sent through the durable outbox (bot/delivery/outbox.py and
transport.py: posted once, then edited in place by the message id stored in
the database), a player's
views as ephemeral messages (or DMs when the player asked for them).

Discord wants every interaction answered within 3 seconds, so verbs that may
run the solver or settle a round (``VerbInfo.slow``, ``VerbInfo.solver``)
are deferred before the manager is called,
and any other one as soon as the manager takes ACK_AFTER seconds.
Private views (ephemerals, DMs) are delivered by ``private.PrivateViews``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import discord

from bot.config import MAX_ARRANGE_SECONDS
from bot.core.verbs import VERBS
from bot.delivery.engine import DEFAULT_RETENTION, DeliveryEngine
from bot.delivery.entries import is_durable
from bot.delivery.outbox import Pacing
from bot.delivery.superseded import rounds_of
from bot.i18n import t
from bot.table.actions import Action, ActionIdError, Attachment, Outcome, Verb, decode
from bot.table.contract import TableLike
from bot.views.model import Audience, View, ViewKind
from storage.delivery import DeliveryStore
from storage.delivery_memory import MemoryDelivery

from .private import HAND_DM, PrivateViews
from .refs import Registry, dm_chat, pressed_key
from .transport import DiscordPlatform
from .turn import PLATFORM, Turn, actor_of, language_of

log = logging.getLogger(__name__)

# Any other action still gets acknowledged when the manager takes this long.
ACK_AFTER = 2.0


def _language_of(outcome: Outcome, interaction: discord.Interaction[Any]) -> str:
    """The room's language for a room's answer (one language per room, in the
    channel and in private: docs/messages.md); the user's own otherwise."""
    if outcome.room_id is not None:
        for view in outcome.views:
            return view.language
    return language_of(interaction)


class DiscordAdapter:
    """Routes interactions to the manager and renders its views."""

    def __init__(
        self,
        manager: TableLike,
        *,
        store: DeliveryStore | None = None,
        poll_seconds: float = 1.0,
        retention: timedelta | None = DEFAULT_RETENTION,
    ) -> None:
        """Delivering through ``store`` (the manager's repository; None: in
        memory, nothing survives)."""
        self.manager = manager
        self.client: discord.Client | None = None
        self.refs = Registry()
        pacing = Pacing(poll_seconds=poll_seconds, retention=retention)
        self.platform = DiscordPlatform(lambda: self.client, store or MemoryDelivery(), pacing)
        self.outbox = self.platform.outbox
        self.private = PrivateViews(self.refs, lambda: self.client, self.platform)

    @property
    def engine(self) -> DeliveryEngine:
        """The delivery engine of this platform's outbox (what the process's
        metrics read)."""
        return self.outbox.engine

    def open(self) -> None:
        """The client is connected: delivery starts."""
        self.outbox.start()

    async def close(self) -> None:
        """Deliver what is due, then stop delivery."""
        await self.outbox.stop()

    # ------------------------------------------------------------ entry points

    async def on_command(
        self, interaction: discord.Interaction[Any], verb: Verb, arg: str | None = None
    ) -> None:
        """A ``/thirteen`` subcommand typed in a channel."""
        turn = Turn(interaction, verb)
        await self._route(interaction)
        if VERBS[verb].solver:  # may deal or auto-arrange: deferred privately
            await self._defer(turn)
        action = Action(actor_of(interaction), verb, chat_id=str(interaction.channel_id), arg=arg)
        await self._run(turn, action)

    async def on_press(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A button of any message of ours, old or new (see items.ActionButton)."""
        try:
            room_id, round_no, verb, arg = decode(custom_id)
        except ActionIdError:
            await Turn(interaction, Verb.HELP).say(t(language_of(interaction), "dc.error.stale"))
            return
        turn = Turn(interaction, verb, pressed=interaction.message)
        await self._route(interaction)
        if turn.pressed is not None:
            turn.pressed_key = await self._pressed_key(turn.pressed, room_id, round_no, verb, turn)
        if VERBS[verb].slow:
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
        await self._route(interaction)
        action = Action(
            actor_of(interaction), Verb.SHOW_HAND, str(interaction.channel_id), room_id, round_no
        )
        outcome = await self._handle(turn, action)
        if outcome is None:
            return
        lang = _language_of(outcome, interaction)
        if not outcome.ok:
            await turn.say(outcome.reply or t(lang, "dc.error.refused"))
            return
        for view in outcome.views:
            if view.kind is ViewKind.HAND and view.user_id == turn.user_id:
                await self.private.set_pref(turn.user_id, HAND_DM, True)
                # through the outbox (the DM's lane); told at once how it went
                if await self.platform.dm_now(view):
                    await turn.say(t(lang, "dc.hand.sent_dm"))
                else:
                    await self.private.set_pref(turn.user_id, HAND_DM, False)
                    await turn.say(t(lang, "dc.hand.dm_failed"))
                    await self.private.new_ephemeral(turn, view)
            elif view.audience is not Audience.GROUP:
                await self._deliver(view, turn)
        await self.outbox.submit(outcome.views)
        await self._finish(turn, None)

    async def on_activity(
        self, interaction: discord.Interaction[Any], room_id: str, round_no: int
    ) -> None:
        """The hand's page button with the Activity on: Discord launches it in
        this channel (LAUNCH_ACTIVITY). Where Discord refuses (Activities not
        turned on for the application: docs/discord.md) the player is told
        so and gets the signed link instead, and the log says why."""
        try:
            await interaction.response.launch_activity()
            return
        except discord.HTTPException as error:
            log.warning(
                "Discord refused to launch the Activity (HTTP %s, code %s): are Activities "
                "on for the application? (docs/discord.md); the player gets the link",
                error.status,
                error.code,
            )
        language = language_of(interaction)
        links = self.platform.page_links
        view = discord.ui.View(timeout=None)
        if links is not None:
            # No round deadline at hand: the link lives as long as the longest round.
            until = time.time() + MAX_ARRANGE_SECONDS
            url = links.discord(str(interaction.user.id), room_id, round_no, until)
            view.add_item(discord.ui.Button(label=t(language, "dc.activity.link"), url=url))
        await interaction.response.send_message(
            t(language, "dc.activity.failed"), view=view, ephemeral=True
        )

    async def sink(self, views: Iterable[View]) -> None:
        """Views produced without an interaction (timers, AI moves)."""
        views = list(views)
        for view in views:
            if (view.platform and view.platform != PLATFORM) or view.audience is Audience.GROUP:
                continue
            try:
                await self._deliver(view, None)
            except Exception:  # the next view (and the table) must still go out
                log.exception("could not deliver view %s", view.key)
        try:
            await self.outbox.submit(views)
        except Exception:
            log.exception("could not hand the channel's views to delivery")

    # ------------------------------------------------------------ one turn

    async def _route(self, interaction: discord.Interaction[Any]) -> None:
        """The channel's guild, stored before any row for it is written
        (shard processes deliver by it)."""
        try:
            await self.platform.route(interaction.channel_id, interaction.guild_id)
        except Exception:  # the database for a moment: recorded with a later interaction
            log.warning("could not record the guild of channel %s", interaction.channel_id)

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
            await turn.say(t(language_of(turn.interaction), "dc.error.internal"))
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
        # A group message pressed is answered first (deferred; the outbox
        # edits it), the actor's private views then come as followups.
        views = [v for v in outcome.views if not v.platform or v.platform == PLATFORM]
        try:
            if turn.pressed is not None and any(
                v.audience is Audience.GROUP and v.key == turn.pressed_key for v in views
            ):
                await self._answer_press(turn)
            await self.outbox.submit(views)
        except Exception:  # the database for a moment: the poller sends what was stored
            log.exception("could not hand the channel's views to delivery")
        for view in views:
            if view.audience is Audience.GROUP:
                continue
            try:
                await self._deliver(view, turn)
            except Exception:  # one view failing must not leave the interaction unanswered
                log.exception("could not deliver view %s", view.key)
        language = _language_of(outcome, turn.interaction)
        if not outcome.ok:
            await turn.say(outcome.reply or t(language, "dc.error.refused"))
            pressed = turn.pressed
            if (
                pressed is not None
                and pressed.guild is not None
                and not pressed.flags.ephemeral
                and outcome.stale
            ):
                # Game buttons of an old round may still be up (their message
                # was not known when the next round took its buttons): those
                # of the pressed message go now. The data pressed says nothing
                # about the message: the live table keeps its buttons.
                await self.outbox.retire_pressed(
                    str(pressed.channel.id),
                    str(pressed.id),
                    rounds_of(self.manager),
                    self.platform.buttons_shown(pressed),
                )
            return
        if outcome.file is not None:
            await self._attach(turn, outcome.file)
        await self._finish(turn, outcome.reply, language)

    async def _attach(self, turn: Turn, attachment: Attachment) -> None:
        """A replay's judge line, as a file to feed `thirteen judge`."""
        file = discord.File(io.BytesIO(attachment.text.encode()), filename=attachment.name)
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
            elif turn.pressed is not None:
                await turn.interaction.response.defer()
            else:  # a command whose posts go out through the outbox: a private "done"
                lang = language or language_of(turn.interaction)
                await turn.interaction.response.send_message(t(lang, "dc.done"), ephemeral=True)
        elif turn.deferred and not turn.followed_up and turn.pressed is None:
            # A deferred command shows "thinking…" until its first followup.
            await turn.interaction.followup.send(
                reply or t(language or language_of(turn.interaction), "dc.done"), ephemeral=True
            )

    # ------------------------------------------------------------ delivering views

    async def _deliver(self, view: View, turn: Turn | None) -> None:
        """A player's view (group views go through the outbox)."""
        if turn is not None and view.user_id == turn.user_id:
            await self.private.deliver_to_actor(view, turn)
        elif is_durable(view) and view.user_id is not None:
            self.outbox.engine.wake(dm_chat(view.user_id))  # written with the state change
        elif view.kind is ViewKind.HAND:
            await self.private.refresh_hand(view)
        elif view.user_id is not None and await self.platform.wants_dm(view.user_id):
            await self.platform.submit_dm([view])
        # Any other private view for someone who is not here cannot be shown:
        # Discord has no unprompted ephemerals; the table keeps "my hand".

    async def _pressed_key(
        self, message: discord.Message, room_id: str, round_no: int, verb: Verb, turn: Turn
    ) -> str:
        """The view key of the pressed message: stored with the message when
        the outbox sent it, else read from its buttons."""
        private = message.flags.ephemeral or message.guild is None
        if not private:
            key = await self.outbox.key_of(str(message.channel.id), str(message.id))
            if key is not None:
                return key
            return pressed_key(message, room_id, round_no, verb, turn.user_id)
        return self.refs.learn_pressed(message, room_id, round_no, verb, turn.user_id)

    async def _answer_press(self, turn: Turn) -> None:
        """The press's own message changes: acknowledge the press and let the
        outbox edit that message by its stored id (one path, one edit)."""
        assert turn.pressed is not None and turn.pressed_key is not None
        await self.outbox.adopt(
            turn.pressed_key, str(turn.pressed.channel.id), str(turn.pressed.id)
        )
        if not turn.responded:
            await turn.interaction.response.defer()
            turn.deferred = True


__all__ = ["DiscordAdapter", "Turn", "actor_of"]
