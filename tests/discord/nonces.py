"""Discord's nonce check, which SimCord leaves out.

Discord answers a message create that carries ``enforce_nonce`` and a
``nonce`` already used by a message of the same author in the same channel
within the last few minutes with that first message instead of creating a
second one. SimCord ignores nonces, so the outbox's "a post whose outcome is
unknown is sent again with the same nonce" (docs/delivery.md §5) could not
be checked there. ``honour_nonces`` wraps SimCord's create-message route to
behave as Discord does; ``lose_answers`` makes the next creates succeed on
the server and still fail for the bot (a lost answer: the bot cannot know
whether its post went out).
"""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend.errors import BackendError
from simcord.http import router
from simcord.http._helpers import message_response

from bot.platforms.discord.posting import NONCE_WINDOW

# No longer than the window the bot counts on: a repeat the bot makes within
# it must be dropped here, or the test fails.
WINDOW_SECONDS = NONCE_WINDOW.total_seconds()
_CREATE = ["channels", "{channel_id}", "messages"]


class Nonces:
    def __init__(self) -> None:
        # (world, channel, nonce) -> (message id, simulated time of the create)
        self.seen: dict[tuple[int, int, str], tuple[int, float]] = {}
        self.lost: dict[int, int] = {}  # world -> creates whose answer is lost
        self.dropped = 0  # repeats answered with the first message


def _wrap(original: Any, nonces: Nonces) -> Any:
    def create(ctx: router.RequestContext) -> Any:
        body = ctx.body()
        nonce = body.get("nonce")
        world = id(ctx.backend)
        channel = ctx.int_arg("channel_id")
        now = ctx.backend.clock.elapsed
        key = (world, channel, str(nonce))
        if nonce is not None and body.get("enforce_nonce"):
            hit = nonces.seen.get(key)
            if hit is not None and now - hit[1] <= WINDOW_SECONDS:
                first = ctx.backend.messages.get(channel, {}).get(hit[0])
                if first is not None:
                    nonces.dropped += 1
                    return message_response(ctx, first)
        answer = original(ctx)
        if nonce is not None and body.get("enforce_nonce"):
            nonces.seen[key] = (int(answer["id"]), now)
        if nonces.lost.get(world, 0) > 0:
            nonces.lost[world] -= 1
            raise BackendError(500, 0, "created, but the answer was lost (test)")
        return answer

    return create


def honour_nonces(monkeypatch: pytest.MonkeyPatch) -> Nonces:
    nonces = Nonces()
    routes = list(router._ROUTES["POST"])
    for n, (template, handler) in enumerate(routes):
        if template == _CREATE:
            routes[n] = (template, _wrap(handler, nonces))
            monkeypatch.setitem(router._ROUTES, "POST", routes)
            return nonces
    raise AssertionError("SimCord's create-message route not found")


def lose_answers(nonces: Nonces, env: Any, times: int = 1) -> None:
    """The next ``times`` message creates in ``env`` happen, but the bot
    gets a 500 instead of the answer."""
    nonces.lost[id(env.backend)] = times
