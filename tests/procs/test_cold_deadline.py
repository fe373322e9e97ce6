"""A deadline fired by a process that never dealt the round, its solver
cold for the room's deck setting: the group sees every showdown step once,
in order (head; head and middle; all three lanes), then the settlement.

Two ``thirteen run`` workers on one PostgreSQL behind one webhook URL. The
room plays the extended preset, which neither worker built its solver for
at start (they warm the default, classic); the worker that deals builds it
at the deal and is then killed; the other one fires the deadline, and its
first auto-arrange builds the model from nothing (THIRTEEN_SOLVER_CACHE=off),
far longer than a showdown step. Before, the steps' times counted from the
timer, not from the stored step: the next step was due before step 0 was
sent, and replaced it in the outbox (heads and middles shown at once)."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.table.actions import Verb
from tests.procs.botproc import (
    ANN,
    BO,
    WEBHOOK_PATH,
    WEBHOOK_SECRET,
    BotProcess,
    Players,
    RoundRobinProxy,
    free_port,
    until,
    until_delivered,
    webhook_env,
)
from tests.procs.game import Fleet, Script
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import GROUP_ID, buttons_of

SECRET, PATH = WEBHOOK_SECRET, WEBHOOK_PATH
LANE_TITLES = [t("en", f"show.{lane}") for lane in ("head", "middle", "tail")]


def shown_steps(api: FakeBotAPI, round_no: int) -> list[int]:
    """How many lanes each showdown text the group was sent reveals, in
    the order the calls reached the Bot API (posts and edits alike)."""
    title = t("en", "table.showdown", round=round_no)
    out = []
    for call in api.calls:
        if call.method not in ("sendMessage", "editMessageText"):
            continue
        text = str(call.params.get("text", ""))
        if str(call.params.get("chat_id")) != str(GROUP_ID) or title not in text:
            continue
        assert call.status == 200, (call.method, call.status)
        lines = text.split("\n")
        out.append(sum(line in LANE_TITLES for line in lines))
    return out


@pytest.mark.postgres
@pytest.mark.parametrize("pictures", ["false", "true"])
async def test_a_deadline_fired_by_a_cold_process_shows_every_step_once(
    api: FakeBotAPI, tmp_path, pg_schema_url, pictures: str
) -> None:
    url = pg_schema_url()
    seated = [ANN, BO]
    api.opened |= {u.id for u in seated}
    ports = [free_port() for _ in range(2)]
    proxy = RoundRobinProxy(ports, PATH, SECRET)
    bots = [
        BotProcess(
            webhook_env(
                api,
                url,
                port,
                ARRANGE_SECONDS="15",
                PICTURES=pictures,
            ),
            tmp_path,
        )
        for port in ports
    ]
    proxy.alive = lambda index: bots[index].alive
    fleet = Fleet(api, bots)
    players = Players(api, send=proxy)
    script = Script(players, fleet)
    await fleet.start_all()
    try:

        async def newgame() -> None:
            players.newgame(ANN, "extended")

        await script.step("newgame", newgame, lambda: bool(players.tables()))

        async def join() -> None:
            players.join(BO)

        await script.step("join", join, lambda: any("Bo" in m.text for m in players.tables()))
        table = players.live_tables()[-1]
        assert buttons_of(table, Verb.START)
        assert await script.tap(ANN, table, Verb.START)
        dealer = proxy.sent_to[-1]
        await until(lambda: all(players.hand(u) for u in seated), "the hands")
        await until_delivered(url)
        # The round's table: with pictures, the seats' lanes face down.
        (dealt,) = [m for m in players.live_tables() if m.message_id != table.message_id]
        dealt_id, dealt_picture = dealt.message_id, dealt.photo
        bots[dealer].kill()
        # Nobody arranges: the other worker fires the deadline (15 s after
        # the deal), auto-arranges both hands and plays the showdown.
        await until(lambda: players.settlements(1), "the round settled by the deadline", 60)
    finally:
        codes = [await b.terminate() for b in bots if b.alive]
    log = fleet.log_text()
    assert codes == [0], log[-3000:]
    if pictures == "true":
        # The round's table photo becomes the showdown: after the deal's
        # picture (the auto-arranged confirms changed only its caption), its
        # picture replaced at each step, each step once.
        (showdown,) = [
            m for m in players.group() if m.photo is not None and not buttons_of(m, Verb.VERIFY)
        ]
        assert showdown.message_id == dealt_id and dealt_picture is not None
        steps = showdown.photos[1:]
        assert showdown.photos[0] == dealt_picture and dealt_picture not in steps
        assert len(steps) == 3 and len(set(steps)) == 3, log[-3000:]
        assert not api.refused
    else:
        assert shown_steps(api, 1) == [1, 2, 3], log[-3000:]
    assert len(players.settlements(1)) == 1
    assert "Traceback" not in log, log[-3000:]
