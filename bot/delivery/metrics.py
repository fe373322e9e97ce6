"""``/healthz`` and Prometheus ``/metrics`` over HTTP, on METRICS_PORT (off
unless set), served by the process's one web server (aiohttp, on the bot's
own event loop; with the arranging page on, the same server: bot/cli/run.py).
The outbox's depth is read from the database when scraped, the counters
are the delivery engines' and the table manager's."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

from bot.core.actions import Action
from bot.delivery.engine import DeliveryEngine

log = logging.getLogger(__name__)
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)


class _EngineCounters(Collector):
    def __init__(self, engines: list[DeliveryEngine]) -> None:
        self.engines = engines

    def collect(self) -> Iterator[CounterMetricFamily]:
        sent = CounterMetricFamily(
            "thirteen_deliveries", "Views delivered", labels=["platform", "kind"]
        )
        errors = CounterMetricFamily(
            "thirteen_delivery_errors", "Delivery errors", labels=["platform", "kind"]
        )
        for engine in self.engines:
            for kind, n in engine.delivered.items():
                sent.add_metric([engine.platform, kind], n)
            for kind, n in engine.errors.items():
                errors.add_metric([engine.platform, kind], n)
        yield sent
        yield errors


class Answered(Protocol):
    """What the metrics read of an action's outcome."""

    @property
    def ok(self) -> bool: ...


class Metrics:
    def __init__(self, repo: Any, engines: Sequence[DeliveryEngine] = ()) -> None:
        """Over ``repo``; ``engines``: the delivery engines whose counters
        are served (more with ``watch``, once they are built)."""
        self.repo = repo
        self.engines = list(engines)
        self.registry = CollectorRegistry()
        self.actions = Counter(
            "thirteen_actions", "Actions handled", ["verb", "ok"], registry=self.registry
        )
        self.latency = Histogram(
            "thirteen_action_seconds",
            "Time to handle an action",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.delivery_latency = Histogram(
            "thirteen_delivery_seconds",
            "Time from a view's first write to its delivery",
            ["platform"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.depth = Gauge(
            "thirteen_outbox_depth", "Views not yet delivered", registry=self.registry
        )
        self.oldest = Gauge(
            "thirteen_outbox_oldest_seconds",
            "Age of the oldest view not yet delivered",
            registry=self.registry,
        )
        self.failed = Gauge(
            "thirteen_outbox_failed", "Views given up (permanent errors)", registry=self.registry
        )
        self.rooms = Gauge("thirteen_open_rooms", "Open rooms", registry=self.registry)
        self.registry.register(_EngineCounters(self.engines))
        for engine in self.engines:
            self.watch(engine)

    def watch(self, engine: DeliveryEngine) -> None:
        """Serve ``engine``'s counters and time its deliveries."""
        if engine not in self.engines:
            self.engines.append(engine)
        engine.on_delivered = self._delivered(engine.platform)

    def _delivered(self, platform: str) -> Callable[[Any, float], None]:
        histogram = self.delivery_latency.labels(platform)
        return lambda row, age: histogram.observe(max(age, 0.0))

    def action_done(self, action: Action, outcome: Answered, seconds: float) -> None:
        """The table manager's observer (``TableManager(observer=...)``):
        every action counted and timed, the page's too."""
        self.latency.observe(seconds)
        self.actions.labels(str(action.verb), str(outcome.ok).lower()).inc()

    async def render(self) -> bytes:
        stats = await self.repo.outbox_stats()
        self.depth.set(stats.depth)
        self.failed.set(stats.failed)
        age = 0.0 if stats.oldest is None else (datetime.now(UTC) - stats.oldest).total_seconds()
        self.oldest.set(max(age, 0.0))
        self.rooms.set(len(await self.repo.load_open_rooms()))
        return bytes(generate_latest(self.registry))

    async def healthz(self, request: web.Request) -> web.Response:
        try:
            await self.repo.outbox_stats()  # the database answers
        except Exception:
            log.warning("metrics: health check failed", exc_info=True)
            return web.Response(status=503, text="unhealthy\n")
        return web.Response(text="ok\n")

    async def metrics(self, request: web.Request) -> web.Response:
        try:
            body = await self.render()
        except Exception:
            log.warning("metrics: request failed", exc_info=True)
            return web.Response(status=503, text="unhealthy\n")
        return web.Response(body=body, headers={"Content-Type": "text/plain; version=0.0.4"})

    def add_routes(self, application: web.Application) -> None:
        """``/healthz`` and ``/metrics`` on the process's one web server."""
        application.router.add_get("/healthz", self.healthz)
        application.router.add_get("/metrics", self.metrics)
