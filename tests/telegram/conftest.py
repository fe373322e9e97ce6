from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.telegram.fakebotapi import FakeBotAPI


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()
    # Any request Telegram would have refused is a bug, whatever the test checks.
    assert not server.refused, [
        (call.method, call.params.get("_refusal")) for call in server.refused
    ]
