"""What a round leaves in the group, through the real client on the fake
Bot API: the round's table (a photo of the seats' lanes face down) that
becomes its showdown, and the settlement, which is the lobby until the next
deal; no button that has gone stale stays up, and nothing is posted or
uploaded that an edit of what is there could say."""

from __future__ import annotations

import re
from collections import Counter

from bot.table.actions import Verb
from bot.views.render_common import signed
from tests.stored import stored_json
from tests.telegram.fakebotapi import FakeBotAPI, StoredMessage
from tests.telegram.harness import GROUP_ID, TgUser, button_verb, buttons_of
from tests.telegram.play import (
    USERS,
    alerted,
    arrange_by_suggestion,
    deal,
    join,
    open_room,
    reveal,
    room_of,
    settlements,
    start_round,
    table,
)

ANN, BO, CY = USERS[:3]
INFO = {Verb.VERIFY, Verb.LEADERBOARD, Verb.REVIEW}
LOBBY = {Verb.START, Verb.JOIN, Verb.LEAVE, Verb.ADD_AI, Verb.SETTINGS, Verb.CANCEL}


def in_group(params: dict) -> bool:  # type: ignore[type-arg]
    return str(params.get("chat_id")) == str(GROUP_ID)


def verbs(message: StoredMessage) -> set[Verb]:
    return {v for b in message.buttons if (v := button_verb(b)) is not None}


async def test_a_round_leaves_its_showdown_and_its_settlement(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id, CY.id}
    async with table(api) as (h, manager, clock):
        await deal(h, ANN, BO)
        lobby, dealt = h.group_messages()
        assert lobby.photo is None and not lobby.buttons  # /newgame's lobby, stripped
        assert dealt.photo is not None and {Verb.SHOW_HAND, Verb.LEAVE} <= verbs(dealt)
        start = len(api.calls)
        await arrange_by_suggestion(h, ANN)
        await h.outbox.drain()
        # Ann's ✅ is a caption edit: the picture (every lane face down) stays
        marked = Counter(c.method for c in api.calls[start:] if in_group(c.params))
        assert marked == Counter({"editMessageCaption": 1})
        assert "✅ Ann" in dealt.text and "⏳ Bo" in dealt.text and len(dealt.photos) == 1
        await arrange_by_suggestion(h, BO)
        first = await reveal(h, clock)
        # the same message turned the cards up, head, middle, tail
        assert len(dealt.photos) == 4 and not dealt.buttons
        assert h.group_messages() == [lobby, dealt, first]
        assert verbs(first) == LOBBY | INFO and "Ann" in first.text
        room = room_of(h)  # the settlement offers joining in private too

        # between rounds the settlement is the lobby: a join shows on it,
        # by its caption (nothing uploaded again, nothing new posted)
        before = len(api.calls)
        await join(h, CY)
        await h.outbox.drain()
        methods = [c.method for c in api.calls[before:] if in_group(c.params)]
        assert methods == ["editMessageCaption"] and "Cy" in first.text
        assert len(h.group_messages()) == 3

        # the next deal: a new table; the settlement keeps what answers for
        # any round, the showdown has nothing to take off
        await start_round(h, ANN)
        assert verbs(first) == INFO
        assert not dealt.buttons and len(h.group_messages()) == 4
        new_table = h.group_messages()[-1]
        assert new_table.photo is not None and Verb.SHOW_HAND in verbs(new_table)
        # a copy of the old Next round, pressed anyway, changes nothing
        state = await stored_json(manager, room)
        stale = next(b for b in lobby_buttons(api) if button_verb(b) is Verb.START)
        assert alerted(await h.press(ANN, first, stale["callback_data"]))
        assert await stored_json(manager, room) == state
        for user in (ANN, BO, CY):
            await arrange_by_suggestion(h, user)
        second = await reveal(h, clock)
        assert len(settlements(h)) == 2 and verbs(second) == LOBBY | INFO
        assert [m for m in h.group_messages() if m.buttons and verbs(m) - INFO] == [second]


def lobby_buttons(api: FakeBotAPI) -> list[dict]:  # type: ignore[type-arg]
    """The buttons the first settlement was posted with (as sent)."""
    sent = next(
        c
        for c in api.calls
        if c.method == "sendPhoto" and in_group(c.params) and "Verify" in str(c.params)
    )
    markup = sent.params["reply_markup"]
    return [b for row in markup["inline_keyboard"] for b in row]


async def test_closing_after_a_round_says_so_on_the_settlement(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with table(api) as (h, manager, clock):
        await deal(h, ANN, BO)
        for user in (ANN, BO):
            await arrange_by_suggestion(h, user)
        settle = await reveal(h, clock)
        showdown = h.group_messages()[-2]
        shown = showdown.text
        await h.command(ANN, "/cancel")
        await h.outbox.drain()
        assert settle.text.startswith("Round 1 · result\nThe room is closed.")
        assert verbs(settle) == INFO  # nothing left to press that plays
        assert showdown.text == shown and len(showdown.photos) == 4  # the record untouched
        assert buttons_of(settle, Verb.START) == []


async def test_with_five_players_the_settlement_caption_is_whole(api: FakeBotAPI) -> None:
    """A 5-player settlement under its picture: a caption of who sits and
    each player's round and room total, under Telegram's 1,024 and never
    cut; the deal's caption names the deck's hash by its start only; the
    settings and the deck are one press away (Settings, for anyone; Verify)."""
    long_name = TgUser(25, "Edward Longname-Fitzgerald")
    players = [*USERS, long_name]
    api.opened |= {u.id for u in players}
    async with table(api) as (h, manager, clock):
        await open_room(h, *players)
        await h.command(ANN, "/settings")
        panel = h.message_with(ANN.id, Verb.SET_OPTION)
        suit = next(b for b in buttons_of(panel, Verb.SET_OPTION) if "suit=" in b["callback_data"])
        assert not alerted(await h.press(ANN, panel, suit["callback_data"]))
        await start_round(h, ANN)
        dealt = h.group_messages()[-1]
        assert re.search(r"\b[0-9a-f]{12}…", dealt.text)
        assert not re.search(r"[0-9a-f]{13}", dealt.text)  # no 64-digit hash
        for user in players:
            await arrange_by_suggestion(h, user)
        settle = await reveal(h, clock)
        assert settle.photos and len(settle.text.encode("utf-16-le")) // 2 < 1024
        assert not settle.text.endswith("…")
        state = await stored_json(manager, room_of(h))
        totals = state["round"]["result"]["settlement"]["totals"]
        lines = settle.text.splitlines()
        assert lines[1].startswith("Lobby · 5 player(s)")
        for user in players:
            key = next(k for k, n in state["names"].items() if n == user.first_name)
            (line,) = [x for x in lines if x.startswith(user.first_name + ":")]
            assert line.split(":", 1)[1].split()[0] == signed(totals[key])
        assert len(lines) == 2 + len(players)  # the title, who sits, the totals
        # what the caption leaves out is one press away
        assert not alerted(await h.press_verb(BO, settle, Verb.SETTINGS))
        read = h.private_messages(BO)[-1].text
        assert "escape penalty: off" in read  # the settings, for a player not the owner
        assert not alerted(await h.press_verb(CY, settle, Verb.VERIFY))
        verified = h.private_messages(CY)[-1].text
        assert state["round"]["hash"] in verified and state["round"]["salt"] in verified


async def test_rounds_of_ai_seats_only_leave_the_same_two_messages(api: FakeBotAPI) -> None:
    """The owner leaves the seats to AIs and watches: each deal is its
    showdown at once; it is still a message of its own, and the last
    settlement keeps only what answers for any round."""
    api.opened |= {ANN.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ANN)
        lobby = h.group_messages()[-1]
        await h.press_verb(ANN, lobby, Verb.ADD_AI)
        await h.press_verb(ANN, lobby, Verb.ADD_AI)
        await h.command(ANN, "/leave")
        await start_round(h, ANN)
        first = await reveal(h, clock)
        await start_round(h, ANN)
        second = await reveal(h, clock)
        _, show1, settle1, show2, settle2 = h.group_messages()
        assert (settle1, settle2) == (first, second)
        assert show1.message_id != show2.message_id  # round 1's record stays
        assert "Round 1" in show1.text and "Round 2" in show2.text
        assert not show1.buttons and not show2.buttons
        assert verbs(first) == INFO and verbs(second) == LOBBY | INFO


async def test_pictures_turned_on_between_rounds_edit_the_text_settlement(
    api: FakeBotAPI,
) -> None:
    """A round played in text, then the owner turns pictures on: the
    settlement (the lobby) is edited as the text message it is, not posted
    again; the next round's table is a photo."""
    api.opened |= {ANN.id, BO.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ANN, BO)
        await h.command(ANN, "/settings")
        panel = h.message_with(ANN.id, Verb.SET_OPTION)
        toggle = next(
            b for b in buttons_of(panel, Verb.SET_OPTION) if "pics=" in b["callback_data"]
        )
        await h.press(ANN, panel, toggle["callback_data"])  # off
        await start_round(h, ANN)
        for user in (ANN, BO):
            await arrange_by_suggestion(h, user)
        settle = await reveal(h, clock)
        assert settle.photo is None
        await h.command(ANN, "/settings")  # the panel of this round
        before = len(api.calls)
        panel = h.message_with(ANN.id, Verb.SET_OPTION)
        toggle = next(
            b for b in buttons_of(panel, Verb.SET_OPTION) if "pics=" in b["callback_data"]
        )
        await h.press(ANN, panel, toggle["callback_data"])  # on
        await h.outbox.drain()
        methods = [c.method for c in api.calls[before:] if in_group(c.params)]
        assert methods == ["editMessageText"] and settlements(h) == [settle]
        assert verbs(settle) == LOBBY | INFO
        await start_round(h, ANN)
        assert h.group_messages()[-1].photo is not None  # the new round's table
        assert verbs(settle) == INFO
