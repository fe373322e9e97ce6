"""Whole games through the real python-telegram-bot client, the real
TableManager and a fake Bot API server: commands, deep links, buttons."""

from __future__ import annotations

from pathlib import Path

from bot.table.actions import Verb, encode
from bot.table.clock import FakeClock
from storage.sql import SqlRepository
from tests.stored import stored_json
from tests.telegram.fakebotapi import BOT_USERNAME, FakeBotAPI
from tests.telegram.harness import GROUP_ID, buttons_of
from tests.telegram.play import (
    USERS,
    alerted,
    arrange_by_picking,
    arrange_by_suggestion,
    deal,
    open_room,
    reveal,
    room_of,
    start_round,
    table,
)


async def test_two_players_play_two_rounds(api: FakeBotAPI) -> None:
    ann, bo = USERS[:2]
    api.opened |= {ann.id, bo.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ann, bo)
        table_message = h.group_messages()[0]
        assert "Bo" in table_message.text and len(h.group_messages()) == 1
        await start_round(h, ann)
        first_hand = h.hand_message(ann)
        assert buttons_of(h.hand_message(bo), Verb.PICK)
        live = [m for m in h.group_messages() if any("callback_data" in b for b in m.buttons)]
        assert len(live) == 1, "a replaced table message keeps no buttons"
        await arrange_by_picking(h, ann)
        await arrange_by_suggestion(h, bo)
        first = await reveal(h, clock)
        assert "Ann" in first.text and "Bo" in first.text
        # next round from the settlement's button, by the owner
        assert not alerted(await h.press_verb(ann, first, Verb.START))
        ann_hand = h.hand_message(ann)
        assert ann_hand.message_id != first_hand.message_id  # a new round notifies: new message
        await arrange_by_suggestion(h, ann)
        await arrange_by_suggestion(h, bo)
        second = await reveal(h, clock)
        assert second.message_id != first.message_id
        # one private hand message per round per player, edited in place
        assert [m.message_id for m in h.private_messages(ann)] == [
            first_hand.message_id,
            ann_hand.message_id,
        ]
        await h.command(bo, "/leaderboard")
        assert "Ann" in h.group_messages()[-1].text
        await h.command(ann, "/cancel")
        assert await manager.repo.open_room_for_chat("telegram", str(GROUP_ID)) is None


async def test_three_players_join_by_command_button_and_deep_link(api: FakeBotAPI) -> None:
    ann, bo, cy = USERS[:3]
    api.opened |= {ann.id, bo.id}  # Cy has never opened the bot
    async with table(api) as (h, manager, clock):
        await open_room(h, ann)
        lobby = h.group_messages()[0]
        assert not alerted(await h.press_verb(bo, lobby, Verb.JOIN))
        room = room_of(h)
        await h.start_private(cy, f"j{room}")  # the deep link joins and opens the chat
        assert "Cy" in lobby.text and "Bo" in lobby.text
        api.fail_429_once["sendPhoto"] = 1  # flood limit hit at the deal
        await start_round(h, ann)
        assert [c.status for c in api.calls_of("sendPhoto")].count(429) == 1
        for user in (ann, bo, cy):
            await arrange_by_suggestion(h, user)
        result = await reveal(h, clock)
        assert all(name in result.text for name in ("Ann", "Bo", "Cy"))


async def test_four_players_one_never_opened_the_bot(api: FakeBotAPI) -> None:
    ann, bo, cy, di = USERS
    api.opened |= {ann.id, bo.id, cy.id}
    async with table(api) as (h, manager, clock):
        await deal(h, ann, bo, cy, di)
        assert h.private_messages(di) == []
        notice = next(
            m for m in h.group_messages() if "Di" in m.text and m.buttons and "url" in m.buttons[0]
        )
        link = notice.buttons[0]["url"]
        assert link.startswith(f"https://t.me/{BOT_USERNAME}?start=h")
        await h.start_private(di, link.rsplit("start=", 1)[1])
        assert buttons_of(h.hand_message(di), Verb.PICK)  # the hand arrived
        assert not notice.buttons  # the notice says everyone has their cards now
        for user in (ann, bo, cy):
            await arrange_by_suggestion(h, user)
        await arrange_by_picking(h, di)
        result = await reveal(h, clock)
        assert all(u.first_name in result.text for u in USERS)


async def test_forged_stale_and_foreign_presses_change_nothing(api: FakeBotAPI) -> None:
    ann, bo, cy = USERS[:3]
    api.opened |= {ann.id, bo.id, cy.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ann, bo)
        room = room_of(h)
        await start_round(h, ann)
        hand = h.hand_message(ann)
        pick = buttons_of(hand, Verb.PICK)[0]["callback_data"]
        state = await stored_json(manager, room)
        calls = len(api.calls)
        presses = [
            (ann, pick.replace("|p|", "|zz|")),  # unknown verb
            (ann, "t1|" + "x" * 70),  # oversized
            (ann, "t1|r!|1|p|0"),  # malformed room
            (ann, encode(room, 0, Verb.PICK, "0")),  # stale round
            (ann, encode("zzzz", 1, Verb.PICK, "0")),  # another (absent) room
            (cy, pick),  # Cy is not seated: the actor comes from the update
            (ann, encode(room, 1, Verb.PICK, "99")),  # a card not in the hand
        ]
        for user, data in presses:
            answer = await h.press(user, hand, data)
            assert alerted(answer) and answer["text"], (data, answer)
        assert await stored_json(manager, room) == state
        assert {c.method for c in api.calls[calls:]} == {"answerCallbackQuery"}


async def test_restart_in_the_middle_of_arranging(api: FakeBotAPI, tmp_path: Path) -> None:
    ann, bo, cy = USERS[:3]
    api.opened |= {ann.id, bo.id, cy.id}
    url = f"sqlite:///{tmp_path / 'thirteen.db'}"
    clock = FakeClock(start=1_700_000_000)
    async with table(api, SqlRepository(url), clock) as (h, manager, _):
        await deal(h, ann, bo, cy)
        await arrange_by_suggestion(h, ann)
        hand = h.hand_message(bo)
        first_picks = [b["callback_data"] for b in buttons_of(hand, Verb.PICK)][:2]
        for data in first_picks:
            await h.press(bo, hand, data)
        await manager.repo.close()
    # A new Application and a new TableManager on the same database file.
    async with table(api, SqlRepository(url), clock) as (h2, manager2, _):
        edits = hand.edits
        picks = [b["callback_data"] for b in buttons_of(hand, Verb.PICK)]
        for data in picks[2:8]:
            assert not alerted(await h2.press(bo, hand, data))
        assert hand.edits == edits + 6  # the old hand message is still edited in place
        answer = await h2.press_verb(bo, hand, Verb.CONFIRM)
        if alerted(answer):
            await h2.press_verb(bo, hand, Verb.RESET)
            await arrange_by_suggestion(h2, bo)
        await arrange_by_suggestion(h2, cy)
        result = await reveal(h2, clock)
        assert all(name in result.text for name in ("Ann", "Bo", "Cy"))
        await manager2.repo.close()


async def test_deadline_auto_arranges_and_settles(api: FakeBotAPI) -> None:
    ann, bo = USERS[:2]
    api.opened |= {ann.id, bo.id}
    async with table(api) as (h, manager, clock):
        await deal(h, ann, bo)
        await arrange_by_suggestion(h, ann)
        await clock.advance(121)  # Bo never arranges: the deadline does it
        await h.outbox.drain()
        result = await reveal(h, clock)
        assert "Bo" in result.text


async def test_settings_panel_and_information_commands(api: FakeBotAPI) -> None:
    ann, bo = USERS[:2]
    api.opened |= {ann.id, bo.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ann, bo)
        lobby = h.group_messages()[0]
        await h.command(bo, "/settings")  # not the owner: the settings to read, in private
        assert len(h.group_messages()) == 1
        (read,) = h.private_messages(bo)
        assert "escape penalty" in read.text and not buttons_of(read, Verb.SET_OPTION)
        await h.command(ann, "/settings")
        panel = h.message_with(ann.id, Verb.SET_OPTION)
        before = lobby.text
        option = buttons_of(panel, Verb.SET_OPTION)[0]
        answer = await h.press(ann, panel, option["callback_data"])
        assert not alerted(answer)
        assert lobby.text != before  # the table shows the new option
        assert panel.edits == 1 and len(h.private_messages(ann)) == 1  # panel edited in place
        group_before = len(h.group_messages())
        private_before = len(h.private_messages(bo))
        await h.command(bo, "/stats")
        # the record answers in the group asked in (Bo's private chat has the settings read)
        assert len(h.private_messages(bo)) == private_before
        assert len(h.group_messages()) == group_before + 1
        assert h.group_messages()[-1].text.startswith("Stats · Bo")
        group_before = len(h.group_messages())
        private_before = len(h.private_messages(bo))
        await h.command(bo, "/rules")
        await h.command(bo, "/help")
        # answers for the asker alone: the private chat, not two new group posts
        assert len(h.group_messages()) == group_before
        assert len(h.private_messages(bo)) == private_before + 2
        assert "/newgame" in h.private_messages(bo)[-1].text  # Telegram's own commands
        await start_round(h, ann)
        for user in (ann, bo):
            await arrange_by_suggestion(h, user)
        await reveal(h, clock)
        await h.command(bo, "/verify 1")
        assert "Salt" in h.private_messages(bo)[-1].text
        await h.command(ann, "/language zh-Hant")
        # the lobby is the settlement now: in the new language
        table_now = [m for m in h.group_messages() if buttons_of(m, Verb.JOIN)][-1]
        assert "結算" in table_now.text and "大廳" in table_now.text
