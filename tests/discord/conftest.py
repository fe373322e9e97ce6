"""Shared fixtures of the Discord tests."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from simcord.backend import errors
from simcord.http import router

from bot.rules.cards import parse_cards
from bot.rules.options import make_rules
from tests.storage.conftest import pg_schema_url  # noqa: F401 - a fixture (test_shards)
from tests.web.conftest import browser  # noqa: F401 - a fixture (test_page_link)

from .nonces import Nonces, honour_nonces


@pytest.fixture(scope="session", autouse=True)
def warm_solver() -> None:
    """The solver builds its tables on first use (seconds of CPU). SimCord
    fails a test when the bot stays busy for 5 s, so build them once, outside
    any simulated interaction; the first real suggestion is then as quick as
    every later one."""
    from bot.table.solving import suggestions

    suggestions(
        parse_cards("As Kd Qh Jc Ts 9d 8h 7c 6s 5d 4h 3c 2s"), make_rules("classic", 2, {}), 2
    )


@pytest.fixture(autouse=True)
def no_logged_errors(caplog: pytest.LogCaptureFixture):
    """The adapter logs (and survives) failures instead of raising them into
    discord.py; a test fails when anything was logged at ERROR, e.g.
    "could not deliver view" or discord.py's "Ignoring exception in ..."."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors]


@pytest.fixture(autouse=True)
def nonces(monkeypatch: pytest.MonkeyPatch) -> Nonces:
    """SimCord drops a repeated post with the same nonce, as Discord does."""
    return honour_nonces(monkeypatch)


@pytest.fixture
def launches() -> Iterator[list[int]]:
    """SimCord's interaction callback, taught LAUNCH_ACTIVITY: the channels launched in."""
    launched: list[int] = []
    routes = router._ROUTES["POST"]
    (index,) = [i for i, (parts, _) in enumerate(routes) if parts[-1] == "callback"]
    parts, original = routes[index]

    def callback(ctx: Any) -> Any:
        if ctx.body().get("type") != 12:
            return original(ctx)
        record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
        if record is None or record.token != ctx.args["token"]:
            raise errors.unknown_interaction()
        if record.responded:
            raise errors.already_acknowledged()
        record.defer_update()  # acknowledged, nothing posted
        launched.append(record.channel_id)
        return {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "activity_instance_id": "i-1-gc-1-2",
            },
            "resource": {"type": 12, "activity_instance": {"id": "i-1-gc-1-2"}},
        }

    routes[index] = (parts, callback)
    try:
        yield launched
    finally:
        routes[index] = (parts, original)
