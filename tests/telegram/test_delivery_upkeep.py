"""Delivery upkeep as users meet it, through the real client and the fake
Bot API on a real database: a bot killed right after /newgame's commit
still shows the table after the restart; the "open the bot first" list is
known to every process; old delivery rows are cleaned up without touching
what a live room needs."""

from __future__ import annotations

import asyncio

import pytest

from bot.i18n import t
from bot.table.actions import Verb
from storage.sql import SqlRepository
from tests.storage.conftest import pg_schema_url  # noqa: F401 - a fixture
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import Harness, buttons_of
from tests.telegram.play import NEWGAME, USERS, deal, join, open_room, reveal, settlements, table

ANN, BO = USERS[:2]


class Killed(BaseException):
    """The process dies here: nothing after this point runs."""


class DiesAfterCreate(SqlRepository):
    """A bot whose process is killed right after the new room's commit,
    before the adapter hears back from the table manager."""

    async def create_room(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        await super().create_room(*args, **kwargs)
        raise Killed


async def until(check, what: str) -> None:  # type: ignore[no-untyped-def]
    for _ in range(400):  # a hang guard, not a speed limit
        if check():
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"never happened: {what}")


def tables(h: Harness) -> list:  # type: ignore[type-arg]
    return [m for m in h.group_messages() if buttons_of(m, Verb.JOIN)]


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path, pg_schema_url) -> str:  # noqa: F811
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'bot.db'}"
    return pg_schema_url()


async def test_a_kill_right_after_newgame_commits_still_posts_the_table(
    api: FakeBotAPI, db_url: str
) -> None:
    api.opened |= {ANN.id, BO.id}
    async with table(api, repo=DiesAfterCreate(db_url)) as (h, manager, clock):
        with pytest.raises(Killed):
            await h.app.process_update(h.command_update(ANN, NEWGAME))
        h.outbox.engine.poll_seconds = 3600.0  # dead: it delivers nothing more
        await manager.repo.close()
    assert tables(h) == []  # the process died before the table reached the group
    async with table(api, repo=SqlRepository(db_url), clock=clock) as (h, manager, clock):
        await until(lambda: tables(h), "the table is posted after the restart")
        [lobby] = tables(h)
        assert "Ann" in lobby.text
        await join(h, BO)  # the stored room, at the table that was posted
        [lobby] = tables(h)
        assert "Bo" in lobby.text and lobby.edits >= 1
        await open_room(h, ANN)  # the room is there: no second room, no second table
        assert len(tables(h)) == 1
        await manager.repo.close()


def to_bo(api: FakeBotAPI) -> list:  # type: ignore[type-arg]
    """Every message the bot tried to send Bo (refused or not)."""
    return [
        c
        for c in api.calls
        if c.method.startswith("send") and str(c.params.get("chat_id")) == str(BO.id)
    ]


def reach_notices(h: Harness) -> list:  # type: ignore[type-arg]
    marks = (t("en", "tg.reach_title"), t("en", "tg.reach_done"))
    return [m for m in h.group_messages() if any(mark in m.text for mark in marks)]


async def test_the_open_the_bot_first_list_is_known_to_the_next_process(
    api: FakeBotAPI, db_url: str
) -> None:
    api.opened |= {ANN.id}  # Bo has never opened the bot
    async with table(api, repo=SqlRepository(db_url)) as (h, manager, clock):
        await deal(h, ANN, BO)
        assert [c.status for c in to_bo(api)] == [403]  # held: Telegram refused it
        [notice] = reach_notices(h)
        assert "Bo" in notice.text and "start=" in notice.buttons[0]["url"]
        await manager.repo.close()
    # Another process (here: the bot restarted) knows Bo has not opened the
    # chat: Bo's hand changes (the deadline arranges it), and it is held
    # without another refused call, the notice is not posted again.
    async with table(api, repo=SqlRepository(db_url), clock=clock) as (h, manager, clock):
        await clock.advance(125)  # past the 120 s deadline: the table arranges Bo's hand
        await reveal(h, clock)  # and the round is paid
        assert len(settlements(h)) == 1
        assert [c.status for c in to_bo(api)] == [403]
        assert len(reach_notices(h)) == 1
        await manager.repo.close()
    # Bo opens the chat, and a third process delivers what was held and
    # updates the notice it never posted.
    async with table(api, repo=SqlRepository(db_url), clock=clock) as (h, manager, clock):
        await h.start_private(BO)
        assert [c.status for c in to_bo(api)][:1] == [403]
        assert h.private_messages(BO), "the held hand arrives"
        [notice] = reach_notices(h)
        assert t("en", "tg.reach_done") in notice.text and "Bo" not in notice.text
        assert await manager.repo.get_pref("telegram", str(BO.id), "reach") is None
        await manager.repo.close()
