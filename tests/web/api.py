"""What the API tests share: splits of the harness's hand, a served page
with aiohttp's test client, and the check of a refusal's JSON error."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.i18n import LANGUAGES

from .harness import HAND, Stage, stage

GOOD = {  # a legal split of HAND: pair of eights, a straight, a spade flush
    "head": ["8h", "8d", "2c"],
    "middle": ["7c", "6c", "5h", "4d", "3s"],
    "tail": ["As", "Ks", "Qs", "Js", "9s"],
}
FOULED = {
    "head": ["8h", "8d", "As"],
    "middle": ["Ks", "Qs", "7c", "5h", "3s"],
    "tail": ["Js", "9s", "6c", "4d", "2c"],
}


def indexes(split: dict[str, list[str]], cards: list[str] = HAND) -> dict[str, list[int]]:
    return {lane: [cards.index(token) for token in split[lane]] for lane in split}


@asynccontextmanager
async def served(**kw: Any) -> AsyncIterator[tuple[Stage, TestClient]]:
    async with stage(serve=False, **kw) as st, TestClient(TestServer(st.app.application)) as client:
        yield st, client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status == status, (response.status, await response.text())
    assert response.content_type == "application/json"
    body = await response.json()
    assert body["error"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    assert body["language"] in LANGUAGES, body  # the language of its words
    return body


STEP = 2  # the tests' showdown step (tests/table/helpers.py)


async def confirm(client: Any, token: str, split: dict[str, list[str]], cards: list[str]) -> None:
    response = await client.post("/api/confirm", json=indexes(split, cards), headers=bearer(token))
    assert response.status == 200, await response.text()


async def showdown(client: Any, token: str) -> dict[str, Any]:
    """GET /api/showdown answered: its body."""
    response = await client.get("/api/showdown", headers=bearer(token))
    assert response.status == 200, await response.text()
    body = await response.json()
    assert isinstance(body, dict)
    return body


Served = tuple[Stage, TestClient]
