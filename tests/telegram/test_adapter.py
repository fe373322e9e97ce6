"""The adapter against a toy manager: rendering, edit-in-place, private
reach, forged data, flood handling — independent of the game's rules."""

from __future__ import annotations

from telegram import Update

from bot.i18n.languages import LANGUAGES, REGISTRY
from bot.table.actions import Verb, encode
from tests.fakes import FakeManager
from tests.telegram.fakebotapi import BOT_USERNAME, FakeBotAPI
from tests.telegram.harness import GROUP_ID, Harness, TgUser, buttons_of
from tests.telegram.play import join, open_room, start_round

ANN = TgUser(11, "Ann")
BO = TgUser(12, "Bo", "zh-hans")
CY = TgUser(13, "Cy")
# The toy manager seats no one at /newgame: its owner joins like the others.


async def test_startup_registers_menu_in_chinese_and_english(api: FakeBotAPI) -> None:
    async with Harness(api, FakeManager()):
        pass
    menus = {
        c.params.get("language_code"): c.params["commands"] for c in api.calls_of("setMyCommands")
    }
    # The default menu (English) and one per prefix the registry gives a menu ("zh").
    assert set(menus) == {None} | {x.prefix for x in REGISTRY if x.telegram_menu}
    assert {None, "zh"} <= set(menus)
    names = [c["command"] for c in menus[None]]
    assert names[:4] == ["newgame", "join", "leave", "startgame"] and "verify" in names
    en = {c["command"]: c["description"] for c in menus[None]}
    zh = {c["command"]: c["description"] for c in menus["zh"]}
    assert en["join"] == "Join the game" and zh["join"] == "加入牌局"
    assert en["language"] == f"Language ({'/'.join(LANGUAGES)})"  # zh-Hans/zh-Hant/en


async def test_table_message_is_edited_in_place_with_a_join_deep_link(api: FakeBotAPI) -> None:
    async with Harness(api, FakeManager()) as h:
        await open_room(h, ANN, ANN, BO)
        group = h.group_messages()
        assert len(group) == 1, [m.text for m in group]
        table = group[0]
        assert "Ann" in table.text and "Bo" in table.text and table.edits == 2
        urls = [b["url"] for b in table.buttons if "url" in b]
        assert urls == [f"https://t.me/{BOT_USERNAME}?start=jr1"]


async def test_toy_round_hands_in_private_and_settlement_in_group(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with Harness(api, FakeManager()) as h:
        await open_room(h, ANN, ANN, BO)
        await start_round(h, ANN)
        hand = h.hand_message(ANN)
        for index in range(8):
            await h.press_verb(ANN, hand, Verb.PICK, index)
        assert h.hand_message(ANN).message_id == hand.message_id  # edited, not re-sent
        assert "picked 8" in hand.text and hand.edits == 8
        answer = await h.press_verb(ANN, hand, Verb.CONFIRM)
        assert answer.get("text") == "confirmed" and answer.get("show_alert") in (None, "false")
        bo_hand = h.hand_message(BO)
        await h.press_verb(BO, bo_hand, Verb.SUGGEST)
        await h.press_verb(BO, bo_hand, Verb.APPLY)
        await h.press_verb(BO, bo_hand, Verb.CONFIRM)
        settlement = h.group_messages()[-1]
        assert settlement.text.startswith("Settlement") and buttons_of(settlement, Verb.START)
        assert len(h.group_messages()) == 2  # one table message, one settlement


async def test_refusal_is_an_alert_and_changes_nothing(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with Harness(api, FakeManager()) as h:
        await open_room(h, ANN, ANN, BO)
        await start_round(h, ANN)
        hand = h.hand_message(ANN)
        before = len(api.calls)
        answer = await h.press_verb(ANN, hand, Verb.CONFIRM)  # nothing picked yet
        assert answer["text"] == "pick 8 cards first" and answer["show_alert"] == "true"
        assert [c.method for c in api.calls[before:]] == ["answerCallbackQuery"]


async def test_forged_stale_and_foreign_data_get_an_alert(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id, CY.id}
    manager = FakeManager()
    async with Harness(api, manager) as h:
        await open_room(h, ANN, ANN, BO)
        await start_round(h, ANN)
        hand = h.hand_message(ANN)
        before_calls, before_actions = len(api.calls), len(manager.actions)
        forged = await h.press(ANN, hand, "t1|r1|1|zz|0")  # unknown verb
        garbage = await h.press(ANN, hand, "x" * 64)
        old_version = await h.press(ANN, hand, "t0|r1|1|p|0")
        assert forged["show_alert"] == garbage["show_alert"] == old_version["show_alert"] == "true"
        assert forged["text"] == "This button is no longer valid."
        assert len(manager.actions) == before_actions  # never reached the table
        stale = await h.press(ANN, hand, encode("r1", 0, Verb.PICK, "0"))
        assert (stale["text"], stale["show_alert"]) == ("stale button", "true")
        # Cy is not seated: the actor comes from the update, not from the data.
        foreign = await h.press(CY, hand, encode("r1", 1, Verb.PICK, "0"))
        assert (foreign["text"], foreign["show_alert"]) == ("not your game", "true")
        assert manager.actions[-1].actor.user_id == str(CY.id)
        assert {c.method for c in api.calls[before_calls:]} == {"answerCallbackQuery"}
        assert manager.rooms["r1"].picked[str(ANN.id)] == []
        noop = await h.press(ANN, hand, "noop")  # a disabled button
        assert "show_alert" not in noop or noop["show_alert"] == "false"


async def test_user_who_never_opened_the_bot_gets_a_deep_link(api: FakeBotAPI) -> None:
    api.opened.add(ANN.id)
    async with Harness(api, FakeManager()) as h:
        await open_room(h, ANN, ANN, BO)
        await start_round(h, ANN)
        assert h.private_messages(BO) == []
        refused = [c for c in api.calls_of("sendMessage") if c.params["chat_id"] == str(BO.id)]
        assert [c.status for c in refused] == [403]
        notice = h.group_messages()[-1]
        assert "Bo" in notice.text
        assert [b["url"] for b in notice.buttons] == [f"https://t.me/{BOT_USERNAME}?start=hr1"]
        # Bo's hand changes while held: no second failed send, the newest state is kept.
        await h.start_private(BO, "hr1")
        hand = h.hand_message(BO)
        assert "picked 0" in hand.text and buttons_of(hand, Verb.PICK)
        assert notice.buttons == [] and "✅" in notice.text
        await h.press_verb(BO, hand, Verb.PICK, 3)
        assert "picked 1" in h.hand_message(BO).text


async def test_join_through_a_deep_link(api: FakeBotAPI) -> None:
    async with Harness(api, FakeManager()) as h:
        await open_room(h, ANN)
        await h.start_private(BO, "jr1")
        assert "Bo" in h.group_messages()[0].text
        assert h.private_messages(BO)[-1].text == "joined"


async def test_commands_answer_in_the_chat(api: FakeBotAPI) -> None:
    async with Harness(api, FakeManager()) as h:
        await join(h, ANN)  # no room yet: the reason as a reply
        assert h.group_messages()[-1].text == "no room"
        await open_room(h, ANN, chat_id=ANN.id)  # a group command in private
        assert "group" in h.private_messages(ANN)[-1].text
        await h.start_private(ANN)
        assert "/newgame" in h.private_messages(ANN)[-1].text
        await h.command(BO, "/join@" + BOT_USERNAME)  # still no room, addressed form works
        assert h.group_messages()[-1].text == "no room"


async def test_429_retry_after_is_survived(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with Harness(api, FakeManager()) as h:
        await open_room(h, ANN, ANN, BO)
        api.fail_429_once["editMessageText"] = 1
        await join(h, CY)
        edits = api.calls_of("editMessageText")
        assert [c.status for c in edits[-2:]] == [429, 200]
        assert "Cy" in h.group_messages()[0].text


async def test_429_without_limiter_retries_is_survived_by_the_outbox(api: FakeBotAPI) -> None:
    async with Harness(api, FakeManager(), max_retries=0) as h:
        await open_room(h, ANN)
        api.fail_429_once["editMessageText"] = 1
        await join(h, ANN)
        assert [c.status for c in api.calls_of("editMessageText")] == [429, 200]
        assert "Ann" in h.group_messages()[0].text


async def test_rapid_presses_are_coalesced_into_one_edit(api: FakeBotAPI) -> None:
    api.opened |= {ANN.id, BO.id}
    async with Harness(api, FakeManager()) as h:
        await open_room(h, ANN, ANN, BO)
        await start_round(h, ANN)
        hand = h.hand_message(ANN)
        edits_before = hand.edits
        h.outbox.window = 1.0  # generous, so a slow machine still taps inside it
        data = [b["callback_data"] for b in buttons_of(hand, Verb.PICK)[:5]]
        # Five taps inside one window (updates processed, delivery not awaited).
        for i, d in enumerate(data):
            update = {
                "update_id": api.next_update_id(),
                "callback_query": {
                    "id": f"q{i}",
                    "from": ANN.json(),
                    "chat_instance": "ci",
                    "data": d,
                    "message": api._message_json(hand),
                },
            }
            await h.app.process_update(Update.de_json(update, h.app.bot))
        await h.outbox.drain()
        assert len(api.calls_of("answerCallbackQuery")) == 5
        assert hand.edits - edits_before == 1 and "picked 5" in hand.text


async def test_group_upgraded_to_a_supergroup_is_followed(api: FakeBotAPI) -> None:
    async with Harness(api, FakeManager()) as h:
        await open_room(h, ANN, ANN)
        new_id = GROUP_ID - 1
        api.migrated[GROUP_ID] = new_id
        await join(h, BO)  # the room still names the old chat id
        assert [m.text.count("Bo") for m in api.chat_messages(new_id)] == [1]
        await join(h, CY)
        assert len(api.chat_messages(new_id)) == 1  # and later edits go to the new message
        assert "Cy" in api.chat_messages(new_id)[0].text


async def test_anonymous_admin_is_not_seated(api: FakeBotAPI) -> None:
    manager = FakeManager()
    async with Harness(api, manager) as h:
        await open_room(h, ANN)
        anonymous = TgUser(1087968824, "Group")  # Telegram's GroupAnonymousBot
        update = {
            "update_id": api.next_update_id(),
            "message": {
                "message_id": 99,
                "date": 1_700_000_000,
                "from": anonymous.json() | {"is_bot": True},
                "sender_chat": {"id": GROUP_ID, "type": "supergroup", "title": "g"},
                "chat": {"id": GROUP_ID, "type": "supergroup", "title": "g"},
                "text": "/join",
                "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
            },
        }
        await h.feed(update)
        assert [a.verb for a in manager.actions] == [Verb.NEW]
        assert "Anonymous" in h.group_messages()[-1].text
