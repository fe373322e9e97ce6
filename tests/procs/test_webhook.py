"""Several ``thirteen run`` processes on one PostgreSQL behind one webhook
URL (updates round-robin, as a load balancer sends them): whole games with
one table per room, one settlement post per round, one hand message per
player and round; a worker killed mid-round and the others finish the
round (its deadline fires); SIGTERM stops each worker with exit code 0;
/healthz and /metrics answer."""

from __future__ import annotations

import pytest

from bot.table.actions import Verb
from storage.sql import SqlRepository
from tests.procs.botproc import (
    ANN,
    BO,
    CY,
    WEBHOOK_PATH,
    WEBHOOK_SECRET,
    BotProcess,
    Players,
    RoundRobinProxy,
    free_port,
    http_get,
    until,
    until_delivered,
    webhook_env,
)
from tests.procs.game import Fleet, Script
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import GROUP_ID, buttons_of

SECRET, PATH = WEBHOOK_SECRET, WEBHOOK_PATH


@pytest.mark.postgres
@pytest.mark.parametrize("workers", [2, 3])
async def test_workers_behind_one_webhook_play_and_survive_a_kill(
    api: FakeBotAPI, tmp_path, pg_schema_url, workers: int
) -> None:
    url = pg_schema_url()
    seated = [ANN, BO, CY][:workers]
    api.opened |= {u.id for u in seated}
    ports = [free_port() for _ in range(workers)]
    metrics_ports = [free_port() for _ in range(workers)]
    proxy = RoundRobinProxy(ports, PATH, SECRET)
    bots = [
        BotProcess(
            webhook_env(
                api,
                url,
                port,
                ARRANGE_SECONDS="15",
                METRICS_PORT=str(metrics_port),
            ),
            tmp_path,
        )
        for port, metrics_port in zip(ports, metrics_ports, strict=True)
    ]
    proxy.alive = lambda index: bots[index].alive
    fleet = Fleet(api, bots)
    players = Players(api, send=proxy)
    script = Script(players, fleet)
    await fleet.start_all()
    try:
        await script.play_first_round(seated)
        assert fleet.restarts == 0
        # Round 2 from the settlement's button; the worker that dealt it dies
        # before anyone arranges: another one fires the deadline.
        first = players.settlements(1)[0]
        assert await script.tap(ANN, first, Verb.START)
        await until(lambda: all(players.hand(u, 2) for u in seated), "round 2's hands")
        # Killed once the deal's posts are stored, not in the millisecond
        # between a post and its id's write: there a post is sent again,
        # at least once (docs/delivery.md §5; tests/procs/test_crash.py).
        await until_delivered(url)
        dealer = proxy.sent_to[-1]
        bots[dealer].kill()
        await until(lambda: players.settlements(2), "round 2 settled by the deadline", 60)
        survivor = next(i for i, b in enumerate(bots) if b.alive)
        status, body = await http_get(metrics_ports[survivor], "/healthz")
        assert status == 200 and body.strip() == "ok"
        status, body = await http_get(metrics_ports[survivor], "/metrics")
        assert status == 200
        assert "thirteen_actions_total" in body and "thirteen_outbox_depth" in body
        assert 'thirteen_deliveries_total{kind="table",platform="telegram"}' in body
    finally:
        codes = [await b.terminate() for b in bots if b.alive]
    log = fleet.log_text()
    assert codes == [0] * (workers - 1), log[-3000:]
    assert "still running" not in log
    assert len(players.settlements(1)) == 1 and len(players.settlements(2)) == 1
    assert len(players.tables()) == 3  # the lobby, then one per deal
    # Each round's table became its showdown (no buttons), the lobby of
    # /newgame was retired at the first deal; between rounds the lobby is
    # the last settlement, the one message whose buttons act: round 1's
    # lost its game buttons at round 2's deal and kept the informative ones.
    assert not players.live_tables()
    assert players.live_messages() == players.settlements(2)
    first = players.settlements(1)[0]
    assert buttons_of(first, Verb.VERIFY) and not buttons_of(first, Verb.START)
    for user in seated:
        assert len(players.hands(user, 1)) == 1 and len(players.hands(user, 2)) == 1
        # last round's hand keeps no buttons
        assert not buttons_of(players.hands(user, 1)[0], Verb.PICK)
    repo = SqlRepository(url)
    await repo.init()
    try:
        room = await repo.open_room_for_chat("telegram", str(GROUP_ID))
        assert room is not None and room.state["round_no"] == 2
        assert await repo.has_settlement(room.room_id, 2)
    finally:
        await repo.close()
