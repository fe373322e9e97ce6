"""Seats only for members, through the real python-telegram-bot client, the
real TableManager and the fake Bot API: forged presses from another group
and from private chats, deep links of outsiders, /stats for someone who
never opened the bot, and the owner removing a player."""

from __future__ import annotations

from bot.table.actions import Verb, encode
from tests.stored import stored_json
from tests.table.helpers import FORGED_ARGS as ARGS
from tests.telegram.fakebotapi import BOT_USERNAME, FakeBotAPI
from tests.telegram.harness import GROUP_ID, TgUser, buttons_of
from tests.telegram.play import USERS, alerted, open_room, room_of, start_round, table

OTHER_GROUP = -1009876543210
EVE = TgUser(31, "Eve")  # a member of the other group only


async def test_forged_presses_from_another_group_and_private_chats_change_nothing(
    api: FakeBotAPI,
) -> None:
    ann, bo = USERS[:2]
    api.opened |= {ann.id, bo.id, EVE.id}
    api.members[GROUP_ID] = {ann.id, bo.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ann, bo)
        await h.press_verb(ann, h.group_messages()[0], Verb.ADD_AI)  # an AI seat too
        room = room_of(h)
        await start_round(h, ann)
        state = await stored_json(manager, room)
        # A message of the bot that Eve can press: her own group's table.
        await open_room(h, EVE, chat_id=OTHER_GROUP)
        her_group = api.last_message(OTHER_GROUP)
        assert her_group is not None
        await h.start_private(EVE)
        her_private = api.last_message(EVE.id)
        assert her_private is not None
        calls = len(api.calls)
        for verb in Verb:
            data = encode(room, state["round_no"], verb, ARGS.get(verb))
            for message in (her_group, her_private):
                if verb is Verb.NEW and message is her_group:
                    continue  # opens a room in her own group, as /newgame would
                answer = await h.press(EVE, message, data)
                assert alerted(answer) and answer["text"], (verb, answer)
        # Malformed ids (a superscript digit, a round of 10^30), pressed by a player.
        for data in (f"t1|{room}|1|v|²", f"t1|{room}|1|v|{'9' * 30}", f"t1|{room}|²|p|0"):
            answer = await h.press(ann, h.group_messages()[0], data)
            assert alerted(answer) and answer["text"] == "This button is no longer valid."
        assert await stored_json(manager, room) == state
        methods = {c.method for c in api.calls[calls:]}
        assert methods <= {"answerCallbackQuery", "getChatMember"}
        # A seated player pressing the room's buttons on another group's message: refused too.
        api.members[OTHER_GROUP] = {bo.id}
        hand_pick = encode(room, state["round_no"], Verb.PICK, "0")
        answer = await h.press(bo, her_group, hand_pick)
        assert alerted(answer) and "another chat" in answer["text"]
        assert await stored_json(manager, room) == state


async def test_a_deep_link_seats_only_members_of_the_group(api: FakeBotAPI) -> None:
    ann, bo, cy = USERS[:3]
    api.opened |= {ann.id}
    api.members[GROUP_ID] = {ann.id, bo.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ann)
        room = room_of(h)
        await h.start_private(EVE, f"j{room}")  # room ids are shown in every title
        assert h.private_messages(EVE)[-1].text == "Only members of the table's group can join it."
        await h.start_private(cy, f"j{room}")  # Cy left the group
        assert h.private_messages(cy)[-1].text == "只有牌桌所在群組的成員才能加入。"  # zh-Hant
        seated = {p["key"] for p in (await stored_json(manager, room))["players"]}
        assert seated == {f"telegram:{ann.id}"}
        await h.start_private(bo, f"j{room}")
        seated = {p["key"] for p in (await stored_json(manager, room))["players"]}
        assert f"telegram:{bo.id}" in seated
        checks = [c.params for c in api.calls_of("getChatMember")]
        assert {(c["chat_id"], c["user_id"]) for c in checks} == {
            (str(GROUP_ID), str(u.id)) for u in (EVE, cy, bo)
        }


async def test_rules_for_someone_who_never_opened_the_bot(api: FakeBotAPI) -> None:
    ann, bo = USERS[:2]
    api.opened |= {ann.id}
    async with table(api) as (h, manager, clock):
        await h.command(bo, "/rules")  # Bo never opened the private chat
        reply = h.group_messages()[-1]
        assert reply.text == f"📬 请到私聊查看：打开 https://t.me/{BOT_USERNAME} 并点“开始”。"
        await h.start_private(bo)  # the held answer arrives
        assert h.private_messages(bo), "the bot greets in the private chat"
        group_before = len(h.group_messages())
        await h.command(ann, "/rules")  # Ann opened it: no extra group message
        assert len(h.group_messages()) == group_before
        assert h.private_messages(ann)


async def test_the_owner_removes_a_player_from_the_settings_panel(api: FakeBotAPI) -> None:
    ann, bo, cy = USERS[:3]
    api.opened |= {ann.id, bo.id, cy.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ann, bo, cy)
        room = room_of(h)
        await h.command(ann, "/settings")
        panel = h.message_with(ann.id, Verb.SET_OPTION)
        removes = buttons_of(panel, Verb.REMOVE_PLAYER)
        assert [b["text"] for b in removes] == ["✖ Bo", "✖ Cy"]
        answer = await h.press(ann, panel, removes[0]["callback_data"])
        assert not alerted(answer) and answer["text"] == "Bo was removed from the table."
        seated = {p["key"] for p in (await stored_json(manager, room))["players"]}
        assert seated == {f"telegram:{ann.id}", f"telegram:{cy.id}"}
        assert any("removed Bo" in m.text for m in h.group_messages())
        assert [b["text"] for b in buttons_of(panel, Verb.REMOVE_PLAYER)] == ["✖ Cy"]
        # A forged removal by a player (not the owner) changes nothing.
        state = await stored_json(manager, room)
        forged = encode(room, 0, Verb.REMOVE_PLAYER, str(ann.id))
        answer = await h.press(cy, h.group_messages()[0], forged)
        assert alerted(answer)
        assert await stored_json(manager, room) == state


async def test_a_typed_verify_round_that_is_not_a_number(api: FakeBotAPI) -> None:
    ann = USERS[0]
    api.opened |= {ann.id}
    async with table(api) as (h, manager, clock):
        await open_room(h, ann)
        for text in ("/verify ²", "/verify " + "9" * 30):
            await h.command(ann, text)
            # the refusal says what a round number is
            assert h.group_messages()[-1].text.endswith(
                "is not a round number: write a whole number from 1."
            )
