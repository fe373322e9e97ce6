"""/healthz and /metrics over HTTP, as Prometheus and a load balancer call them."""

from __future__ import annotations

from datetime import UTC, datetime

from aiohttp import web

from bot.delivery import DeliveryEngine, Limits
from bot.delivery.http import serve_http
from bot.delivery.metrics import Metrics
from bot.table.actions import Action, Actor, Verb
from bot.table.manager import TableManager
from storage.delivery import OutboxEntry
from storage.sql import SqlRepository
from tests.delivery.scripts import Script
from tests.procs.botproc import free_port
from tests.procs.botproc import http_get as fetch


async def test_health_and_metrics(tmp_path) -> None:
    repo = SqlRepository(f"sqlite:///{tmp_path / 'm.db'}")
    await repo.init()
    metrics = Metrics(repo)
    manager = TableManager(repo, observer=metrics)  # as thirteen run builds it
    engine = DeliveryEngine(repo, Script(), limits=Limits.off())
    metrics.watch(engine)
    port = free_port()
    application = web.Application()
    metrics.add_routes(application)  # as thirteen run serves them (bot/cli/run.py)
    server = await serve_http(application, [("127.0.0.1", port)])
    try:
        ann = Actor("telegram", "1", "Ann")
        assert (await manager.handle(Action(ann, Verb.NEW, chat_id="-5"))).ok
        await repo.enqueue(
            [OutboxEntry("telegram", "-5", "n#1", "notice", {"text": "x"})], datetime.now(UTC)
        )
        assert await fetch(port, "/healthz") == (200, "ok\n")
        status, body = await fetch(port, "/metrics")
        assert status == 200
        assert 'thirteen_actions_total{ok="true",verb="new"} 1.0' in body
        assert "thirteen_outbox_depth 1.0" in body
        assert "thirteen_open_rooms 1.0" in body
        assert "thirteen_action_seconds_count 1.0" in body
        engine.wake("-5")
        await engine.drain()
        _, body = await fetch(port, "/metrics")
        assert 'thirteen_deliveries_total{kind="notice",platform="telegram"} 1.0' in body
        assert "thirteen_outbox_depth 0.0" in body
        assert (await fetch(port, "/nothing"))[0] == 404
    finally:
        await server.cleanup()
        await repo.close()
