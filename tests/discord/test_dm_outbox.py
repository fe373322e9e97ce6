"""Hands by DM through the durable outbox, under SimCord on SQLite: the DM
is posted once (with its nonce) and edited by its stored id, also by a new
process; 5xx are waited out; a post cut off by a crash is one message; DMs
closed later are recorded and the player is told privately."""

from __future__ import annotations

from typing import Any

import pytest

from bot.delivery import view_entries
from bot.i18n import t
from bot.table.actions import Verb
from bot.views.model import Audience, View, ViewKind
from storage.delivery import OutboxState

from .game import Game, game_on_sqlite, restart, seat_everyone
from .harness import action_ids, button_id, embed_text, verbs
from .nonces import Nonces


@pytest.fixture
async def game(tmp_path):
    async with game_on_sqlite(tmp_path) as game:
        yield game


async def _bob_by_dm(game: Game) -> Any:
    await seat_everyone(game, 2)
    alice, bob, _ = game.members
    lobby = game.table.table_message()
    await alice.click(lobby, custom_id=button_id(lobby, Verb.START))
    table_msg = game.table.table_message()
    dm_button = next(cid for cid in action_ids(table_msg) if cid.startswith("dc1|dm|"))
    res = await bob.click(table_msg, custom_id=dm_button)
    texts = [m.content for m in [res.response, *res.followups] if m is not None]
    assert t("en", "dc.hand.sent_dm") in texts
    [dm] = bob.user.dm_channel.history()
    return dm


def embed_of(message: Any) -> str:
    return embed_text(message) + repr([b.label for r in message.components for b in r.children])


def _dm_calls(game: Game, method: str, dm: Any, since: int = 0) -> list[Any]:
    path = f"/channels/{dm.channel.id}/messages"
    return [
        r for r in game.env.http_requests[since:] if r.method == method and r.path.startswith(path)
    ]


async def test_a_dm_hand_is_posted_once_and_edited_by_its_stored_id(game: Game) -> None:
    dm = await _bob_by_dm(game)
    bob = game.members[1]
    [post] = _dm_calls(game, "POST", dm)
    assert post.json["nonce"] and post.json["enforce_nonce"] is True
    room = game.room_id()
    key = f"hand:{room}:discord:{bob.id}"
    stored = await game.repo.sent_message("discord", f"dm:{bob.id}", key)
    assert stored is not None and stored.message_id == f"{dm.channel.id}/{dm.id}"
    calls = len(game.env.http_requests)
    first = (await game.hand_state(bob))["order"][0]
    res = await bob.user.click(dm, custom_id=button_id(dm, Verb.PICK, str(first)))
    assert res.deferred  # acknowledged; the outbox edits the DM
    assert [r.json.get("type") for r in game.env.http_requests[calls:] if "callback" in r.path] == [
        6
    ]
    assert len(_dm_calls(game, "PATCH", dm, calls)) == 1
    assert (await game.hand_state(bob))["head"] == [first]
    [again] = bob.user.dm_channel.history()
    assert again.id == dm.id and embed_of(again) != embed_of(dm)  # the pick shows
    stats = await game.repo.outbox_stats("discord")
    assert stats.depth == 0 and stats.failed == 0


async def test_a_new_process_edits_the_same_dm_through_5xx(game: Game) -> None:
    dm = await _bob_by_dm(game)
    bob = game.members[1]
    await restart(game)
    game.env.inject_error(
        "PATCH", f"/channels/{dm.channel.id}/messages/*", status=502, message="bad", times=2
    )
    calls = len(game.env.http_requests)
    first = (await game.hand_state(bob))["order"][0]
    await bob.user.click(dm, custom_id=button_id(dm, Verb.PICK, str(first)))
    await game.env.advance_time(30)  # the lane's back-off
    assert len(_dm_calls(game, "PATCH", dm, calls)) == 3  # two 502s, then the edit
    assert _dm_calls(game, "POST", dm, calls) == []  # the stored DM, no new one
    [again] = bob.user.dm_channel.history()
    assert again.id == dm.id and embed_of(again) != embed_of(dm)  # the pick shows
    stats = await game.repo.outbox_stats("discord")
    assert stats.depth == 0 and stats.failed == 0


async def test_a_dm_post_cut_off_by_a_crash_is_one_message(game: Game, nonces: Nonces) -> None:
    dm = await _bob_by_dm(game)
    bob = game.members[1]
    outbox = game.table.client.adapter.outbox
    chat = f"dm:{bob.id}"
    view = View(
        ViewKind.NOTICE,
        Audience.PLAYER,
        "notice:zz:dm",
        "for bob",
        ("only you",),
        platform="discord",
        chat_id=str(game.table.channel.id),
        user_id=str(bob.id),
        language="en",
    )
    # a keyed DM (its own message), as written by a process that then died
    # right after Discord took the post, before the message id was stored
    [entry] = view_entries([view])
    entry = type(entry)(entry.platform, chat, "review:zz", entry.kind, entry.payload, True)
    await game.repo.enqueue([entry], outbox.engine.now())
    [row] = await game.repo.lane_rows("discord", chat, outbox.engine.now())
    with game.env.time_context():
        await outbox.deliver(row)
    [row] = await game.repo.lane_rows("discord", chat, outbox.engine.now())
    assert row.state is OutboxState.SENDING
    await restart(game)  # the new process's first look sends it again, same nonce
    messages = bob.user.dm_channel.history()
    assert [m.id for m in messages if m.id != dm.id] and len(messages) == 2
    assert nonces.dropped == 1
    stored = await game.repo.sent_message("discord", chat, "review:zz")
    assert stored is not None and stored.message_id.endswith(f"/{messages[-1].id}")
    assert (await game.repo.outbox_stats("discord")).depth == 0


async def test_dms_closed_later_are_recorded_and_told_privately(game: Game) -> None:
    dm = await _bob_by_dm(game)
    alice, bob, _ = game.members
    # bob closes his DMs: Discord refuses every DM to him (50007)
    game.env.inject_error(
        "*",
        f"/channels/{dm.channel.id}/messages*",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await game.advance(121)  # the deadline arranges bob's hand: its DM is refused
    await game.finish_showdown()
    assert await game.repo.get_pref("discord", str(bob.id), "hand_dm") == "closed"
    stats = await game.repo.outbox_stats("discord")
    assert stats.failed == 1 and stats.depth == 0  # recorded, not retried
    # the next round: bob's hand is no longer sent to his DMs
    settle = game.table.settlement_messages()[-1]
    await alice.click(settle, custom_id=button_id(settle, Verb.START))
    refused = len(
        [r for r in game.env.http_requests if r.path.startswith(f"/channels/{dm.channel.id}")]
    )
    table_msg = game.table.table_message()
    res = await bob.click(table_msg, custom_id=button_id(table_msg, Verb.SHOW_HAND))
    shown = [m for m in [res.response, *res.followups] if m is not None]
    assert all(m.ephemeral for m in shown)
    assert shown[0].content == t("en", "dc.hand.dm_failed")  # told, privately
    assert any(Verb.PICK in verbs(m) for m in shown)  # and the hand, here
    assert await game.repo.get_pref("discord", str(bob.id), "hand_dm") is None
    assert (
        len([r for r in game.env.http_requests if r.path.startswith(f"/channels/{dm.channel.id}")])
        == refused
    )


async def test_a_dm_hand_changed_by_a_timer_is_written_with_the_state(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deadline arranges bob's hand; the process dies right after that
    commit, before its lanes were woken and its adapter saw the views: the
    DM row was written with the room's state, so the next process edits
    bob's DM."""
    dm = await _bob_by_dm(game)
    bob = game.members[1]
    game.manager.set_sink(None)  # the views of the timer never reach the adapter
    # nor is the DM's lane woken after the commit
    monkeypatch.setattr(game.manager.durable, "written", lambda entries: None)
    # (nor does this process's poller look again: it sleeps in simulated time)
    await game.advance(121)
    assert (await game.hand_state(bob))["auto"]
    chat = f"dm:{bob.id}"
    key = f"hand:{game.room_id()}:discord:{bob.id}"
    rows = await game.repo.lane_rows("discord", chat, game.table.client.adapter.outbox.engine.now())
    assert [r.key for r in rows] == [key]
    assert embed_of(bob.user.dm_channel.history()[-1]) == embed_of(dm)  # not shown yet
    await restart(game)
    [shown] = bob.user.dm_channel.history()
    assert shown.id == dm.id  # the same DM, edited
    assert t("en", "hand.auto") in embed_text(shown)
    assert (await game.repo.outbox_stats("discord")).depth == 0
