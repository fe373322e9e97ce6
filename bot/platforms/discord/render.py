"""Platform-neutral Views rendered as Discord embeds and component rows.

Every button of a View carries an action id (``t1|<room>|<round>|<verb>|<arg>``)
which becomes the custom_id of an :class:`~.items.ActionButton` dynamic item
untouched, so any button of any message (also after a restart) routes back to
the table manager. Discord allows 5 rows of 5 buttons per message; the
manager's views are designed to fit, and anything beyond is dropped with a
warning rather than failing the whole message.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import re
from dataclasses import dataclass
from typing import Any, TypedDict

import discord

from bot.i18n import t
from bot.pictures import render_async
from bot.table.actions import Verb
from bot.views.model import Button, ButtonStyle, View, ViewKind
from bot.web.links import PageLinks

from .items import ACTIVITY_TEMPLATE, ActionButton, ActivityButton, HandDmButton

log = logging.getLogger(__name__)

MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_LABEL = 80
MAX_TITLE = 256
MAX_DESCRIPTION = 4096

_STYLES = {
    ButtonStyle.PRIMARY: discord.ButtonStyle.primary,
    ButtonStyle.SECONDARY: discord.ButtonStyle.secondary,
    ButtonStyle.SUCCESS: discord.ButtonStyle.success,
    ButtonStyle.DANGER: discord.ButtonStyle.danger,
}

_COLOURS = {
    ViewKind.TABLE: discord.Colour.dark_green(),
    ViewKind.SETTLEMENT: discord.Colour.gold(),
    ViewKind.HAND: discord.Colour.blurple(),
    ViewKind.NOTICE: discord.Colour.light_grey(),
}


@dataclass(frozen=True, slots=True)
class Rendered:
    """What one message shows: an embed, its component rows and the card
    picture (PNG) the embed shows as its image, if any."""

    embed: discord.Embed
    view: discord.ui.View | None
    png: bytes | None = None
    filename: str = "cards.png"
    # ``<@id> <@id>``: the people the view mentions (a mention inside an
    # embed notifies nobody, so they go in the message's content)
    content: str | None = None

    def _file(self) -> discord.File | None:
        # A File is read once per request: a new one for every send or edit.
        if self.png is None:
            return None
        return discord.File(io.BytesIO(self.png), filename=self.filename)

    def kwargs(self) -> EditArgs:
        """Arguments for an edit; ``view=None`` removes the buttons and the
        attachments are replaced (none: a picture shown before goes away)."""
        file = self._file()
        return {
            "content": self.content,
            "embed": self.embed,
            "view": self.view,
            "attachments": [file] if file else [],
        }

    def send_kwargs(self) -> SendArgs:
        out: SendArgs = {"embed": self.embed}
        if self.content:
            out["content"] = self.content
            out["allowed_mentions"] = MENTION_USERS
        if self.view is not None:
            out["view"] = self.view
        file = self._file()
        if file is not None:
            out["file"] = file
        return out


class EditArgs(TypedDict):
    """The keyword arguments of an edit that replaces a message's content."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View | None
    attachments: list[discord.File]


class SendArgs(TypedDict, total=False):
    """The keyword arguments of a new message (no ``view`` when it has no buttons)."""

    embed: discord.Embed
    view: discord.ui.View
    file: discord.File
    content: str
    allowed_mentions: discord.AllowedMentions


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def make_embed(view: View) -> discord.Embed:
    description = "\n".join(view.lines)
    return discord.Embed(
        title=_clip(view.title, MAX_TITLE) if view.title else None,
        description=_clip(description, MAX_DESCRIPTION) if description else None,
        colour=_COLOURS.get(view.kind, discord.Colour.default()),
    )


def with_page(view: View, links: PageLinks | None, *, in_channel: bool = False) -> View:
    """A private hand with its "arrange by dragging" button made a link to
    the page, with this player's pass for the round (Discord has no signed
    launch data); the button goes where the page is off, or where Discord's
    5 rows of 5 have no room for it. ``in_channel``: the hand is an
    ephemeral message in the room's channel; where the page is a Discord
    Activity (DISCORD_ACTIVITY) the button there launches it instead (a DM
    keeps the link: an Activity launched in a DM is not the room's channel)."""
    page = [b for row in view.buttons for b in row if b.web_app]
    if not page:
        return view
    rows = [[b for b in row if not b.web_app] for row in view.buttons]
    rows = [row for row in rows if row]
    parts = view.key.split(":")
    round_no, deadline = view.meta.get("round", ""), view.meta.get("deadline", "")
    if (
        links is not None
        and view.user_id
        and len(parts) > 1
        and round_no.isdigit()
        and deadline.isdigit()
    ):
        if links.activity and in_channel:
            launch = f"dc1|act|{parts[1]}|{int(round_no)}"
            link = dataclasses.replace(page[0], action_id=launch, web_app=False)
        else:
            url = links.discord(str(view.user_id), parts[1], int(round_no), float(deadline))
            link = dataclasses.replace(page[0], url=url, web_app=False)
        free = next((row for row in rows if len(row) < MAX_PER_ROW), None)
        if free is not None:
            free.append(link)
        elif len(rows) < MAX_ROWS:
            rows.append([link])
    return dataclasses.replace(view, buttons=tuple(tuple(row) for row in rows))


def make_item(button: Button, row: int) -> discord.ui.Item[Any] | None:
    label = _clip(button.label, MAX_LABEL) or "·"
    if button.url:
        return discord.ui.Button(label=label, url=button.url, row=row, disabled=button.disabled)
    if not button.action_id:
        return None
    if launch := re.fullmatch(ACTIVITY_TEMPLATE, button.action_id):
        return ActivityButton.build(launch["room"], int(launch["round"]), label=label, row=row)
    return ActionButton.build(
        button.action_id,
        label=label,
        style=_STYLES.get(button.style, discord.ButtonStyle.secondary),
        disabled=button.disabled,
        row=row,
    )


def make_components(view: View, *, dm_button: bool = True) -> discord.ui.View | None:
    """The view's buttons as at most 5 rows of 5; a table view that offers
    "my hand" also offers "my hand by DM" (the Discord-only fallback) where
    a slot is free."""
    rows = [list(r) for r in view.buttons if r]
    if len(rows) > MAX_ROWS or any(len(r) > MAX_PER_ROW for r in rows):
        log.warning("view %s has more buttons than Discord allows; extra ones dropped", view.key)
    ui = discord.ui.View(timeout=None)
    count = 0
    for row_no, row in enumerate(rows[:MAX_ROWS]):
        for button in row[:MAX_PER_ROW]:
            item = make_item(button, row_no)
            if item is not None:
                ui.add_item(item)
                count += 1
    hand = view.acting(Verb.SHOW_HAND) if dm_button and view.kind is not ViewKind.HAND else None
    if hand is not None:
        used = [len(r[:MAX_PER_ROW]) for r in rows[:MAX_ROWS]]
        free = next((i for i, size in enumerate(used) if size < MAX_PER_ROW), None)
        if free is None and len(used) < MAX_ROWS:
            free = len(used)
        if free is not None:
            ui.add_item(
                HandDmButton.build(*hand, label=t(view.language, "dc.button.hand_dm"), row=free)
            )
            count += 1
    return ui if count else None


# A view's mentions notify the people named, never a role or everyone.
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def mention_content(view: View) -> str | None:
    """The message content that mentions ``view.mentions`` (None: nobody)."""
    ids = [m.user_id for m in view.mentions if m.user_id.isdigit()]
    return " ".join(f"<@{i}>" for i in ids) or None


def render(view: View, *, dm_button: bool = True) -> Rendered:
    """The view as text and buttons only (no picture)."""
    return Rendered(
        make_embed(view), make_components(view, dm_button=dm_button), content=mention_content(view)
    )


async def prepare(view: View, *, dm_button: bool = True) -> Rendered:
    """The view with its card picture, if it has one: the PNG is rendered
    in a worker thread and attached; the embed shows it as its image."""
    embed = make_embed(view)
    components = make_components(view, dm_button=dm_button)
    content = mention_content(view)
    if view.picture is None:
        return Rendered(embed, components, content=content)
    png = await render_async(view.picture.render, view.picture.data)
    embed.set_image(url=f"attachment://{view.picture.filename}")
    return Rendered(embed, components, png, view.picture.filename, content)
