"""How often the outbox calls the platform for one outbox row: a whole
round through the strict fake Bot API, with the platform behind a counting
wrapper. The outbox owns the decision and asks the platform to prepare the
row (its markup and fingerprint, rendered once) and then to edit or post it
(docs/delivery.md §1): two calls per row delivered, a third only where a
message cannot be edited and is posted anew, or an old message's buttons go."""

from __future__ import annotations

from collections import Counter
from contextvars import ContextVar
from typing import Any

import pytest

from bot.delivery.outbox import Outbox
from bot.platforms.telegram import transport
from storage.delivery import OutboxRow, SentRef
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.play import (
    USERS,
    arrange_by_suggestion,
    open_room,
    reveal,
    start_round,
    table,
)

# Set while a lane's task delivers a row (other lanes run concurrently).
DELIVERING: ContextVar[bool] = ContextVar("delivering", default=False)


class Counting:
    """The platform, every attribute read (a call or a trait) made while a
    row is delivered counted."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        if DELIVERING.get():
            self.calls[name] += 1
        return getattr(self._inner, name)


async def test_two_calls_per_row(api: FakeBotAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    ann, bo = USERS[:2]
    api.opened |= {ann.id, bo.id}
    renders = 0
    render_markup = transport.render_markup

    def counted_render(*args: Any, **kwargs: Any) -> Any:
        nonlocal renders
        renders += 1
        return render_markup(*args, **kwargs)

    monkeypatch.setattr(transport, "render_markup", counted_render)
    async with table(api) as (h, manager, clock):
        outbox: Outbox = h.outbox
        counting = Counting(outbox.side)
        outbox.side = counting
        rows = 0
        deliver = outbox.deliver

        async def counted(row: OutboxRow) -> SentRef | None:
            nonlocal rows
            rows += 1
            token = DELIVERING.set(True)
            try:
                return await deliver(row)
            finally:
                DELIVERING.reset(token)

        outbox.deliver = counted  # type: ignore[method-assign]
        await open_room(h, ann, bo)
        await start_round(h, ann)
        await arrange_by_suggestion(h, ann)
        await arrange_by_suggestion(h, bo)
        await reveal(h, clock)
        calls = sum(counting.calls.values())
        print(f"rows {rows}, platform calls {calls}: {dict(counting.calls)}")
        assert rows >= 8
        # prepare + edit or post; strip only after a post that replaces a message
        assert calls <= 2 * rows + counting.calls["strip"], counting.calls
        assert counting.calls["prepare"] == rows
        # the keyboard rendered once per row (prepare; not again for the
        # edit), and once per strip that keeps some buttons
        assert counting.calls["edit"] > 0 and rows <= renders <= rows + counting.calls["strip"]
