"""The Discord Activity's way in (POST /api/activity), against a local fake
of Discord's token, @me and activity-instance endpoints: a code checked
with Discord gives the signed link's pass for the room of the instance's
channel; every other launch is refused, changes nothing, and no secret,
code or token reaches a log."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import SettingsError, load_settings
from bot.web import passes
from bot.web.entries import Entries

from .api import GOOD, bearer, indexes, refused
from .discord_fake import (
    BOT_TOKEN,
    CHANNEL,
    CLIENT_ID,
    CLIENT_SECRET,
    OTHER_APP,
    OTHER_CHANNEL,
    FakeDiscord,
    fake_discord,
)
from .harness import HAND, OTHER, SECRET, Stage, stage

PROXY = {"Origin": f"https://{CLIENT_ID}.discordsays.com"}  # Discord's proxy serves the page


@asynccontextmanager
async def activity_served(
    **kw: Any,
) -> AsyncIterator[tuple[Stage, TestClient, FakeDiscord]]:
    async with (
        fake_discord() as fake,
        stage(serve=False, platform="discord", chat=CHANNEL, activity=fake.config(), **kw) as st,
        TestClient(TestServer(st.app.application)) as client,
    ):
        yield st, client, fake


async def launch(client: Any, code: str, instance: str) -> Any:
    return await client.post(
        "/api/activity", json={"code": code, "instance_id": instance}, headers=PROXY
    )


def user(st: Stage, seat: int) -> str:
    return st.players[seat].user_id


async def test_a_code_checked_with_discord_opens_that_player_s_hand() -> None:
    async with activity_served() as (st, client, fake):
        instance = fake.instance([user(st, 0), user(st, 1)])
        response = await launch(client, fake.code_for(user(st, 0)), instance)
        assert response.status == 200, await response.text()
        body = await response.json()
        assert body["access_token"] in fake.tokens  # for the SDK's authenticate
        assert body["hand"]["cards"] == HAND
        grant = passes.check(body["pass"], SECRET, st.clock.now())
        assert (grant.platform, grant.user_id) == ("discord", user(st, 0))
        assert (grant.room_id, grant.round_no) == (st.room, st.round_no)
        assert fake.calls == ["token", "me", "instance"]
        # The pass is the link's: the page goes on as it does from a link.
        response = await client.get("/api/hand", headers=bearer(body["pass"]))
        assert (await response.json())["cards"] == HAND
        response = await client.post(
            "/api/confirm", json=indexes(GOOD), headers={**bearer(body["pass"]), **PROXY}
        )
        assert response.status == 200, await response.text()
        assert (await st.hand(0))["done"]
        # The other player gets their own hand, never this one.
        response = await launch(client, fake.code_for(user(st, 1)), instance)
        assert (await response.json())["hand"]["cards"] == OTHER


async def test_a_code_is_taken_once_even_before_discord_is_asked() -> None:
    async with activity_served() as (st, client, fake):
        instance = fake.instance([user(st, 0)])
        code = fake.code_for(user(st, 0))
        assert (await launch(client, code, instance)).status == 200
        calls = len(fake.calls)
        await refused(await launch(client, code, instance), 401, "web.err.activity_login")
        assert len(fake.calls) == calls  # refused here: Discord is not asked again


@pytest.mark.parametrize(
    "make_code",
    [
        pytest.param(lambda fake, uid: "forged-" + "x" * 20, id="forged"),
        pytest.param(lambda fake, uid: fake.code_for(uid, app=OTHER_APP), id="another-app"),
        pytest.param(lambda fake, uid: fake.code_for(uid, scope="guilds"), id="no-identify"),
    ],
)
async def test_a_code_discord_does_not_vouch_for_is_refused(make_code: Any) -> None:
    async with activity_served() as (st, client, fake):
        before = await st.state()
        instance = fake.instance([user(st, 0)])
        response = await launch(client, make_code(fake, user(st, 0)), instance)
        body = await refused(response, 401, "web.err.activity_login")
        assert "pass" not in body
        assert await st.state() == before


async def test_a_user_not_in_the_instance_is_refused() -> None:
    async with activity_served() as (st, client, fake):
        before = await st.state()
        instance = fake.instance([user(st, 1)])  # seat 0 is not in this Activity
        response = await launch(client, fake.code_for(user(st, 0)), instance)
        await refused(response, 403, "web.err.activity_instance")
        assert await st.state() == before


@pytest.mark.parametrize(
    "make_instance",
    [
        pytest.param(lambda fake, users: fake.instance(users, channel=OTHER_CHANNEL), id="channel"),
        pytest.param(lambda fake, users: fake.instance(users, app=OTHER_APP), id="another-app"),
        pytest.param(lambda fake, users: "i-0-gc-1-2", id="unknown"),
    ],
)
async def test_an_instance_outside_the_room_s_channel_is_refused(make_instance: Any) -> None:
    async with activity_served() as (st, client, fake):
        before = await st.state()
        instance = make_instance(fake, [user(st, 0)])
        response = await launch(client, fake.code_for(user(st, 0)), instance)
        assert response.status in (403, 404)
        assert (await response.json())["error"] in (
            "web.err.activity_instance",
            "web.err.not_seated",
        )
        assert "pass" not in await response.json()
        assert await st.state() == before


async def test_a_user_in_the_instance_but_not_seated_is_refused() -> None:
    async with activity_served() as (st, client, fake):
        before = await st.state()
        watcher = "8123456789"
        instance = fake.instance([user(st, 0), watcher])
        response = await launch(client, fake.code_for(watcher), instance)
        await refused(response, 403, "web.err.not_seated")
        assert await st.state() == before


async def test_a_pass_is_for_its_round_only_and_takes_nothing_after_it() -> None:
    async with activity_served(arrange_seconds=60) as (st, client, fake):
        instance = fake.instance([user(st, 0), user(st, 1)])
        response = await launch(client, fake.code_for(user(st, 0)), instance)
        token = (await response.json())["pass"]
        # Another player's round: the pass names its user, room and round;
        # changed, its signature no longer holds.
        other = passes.check(token, SECRET, st.clock.now())
        forged = passes.issue(
            passes.Pass("discord", user(st, 1), other.room_id, other.round_no, other.expires),
            b"not the secret",
        )
        await refused(await client.get("/api/hand", headers=bearer(forged)), 401, "web.err.pass")
        await st.clock.advance(61)  # the deadline: the table arranges both hands
        await st.clock.advance(60)  # the showdown's steps
        before = await st.state()
        assert before["phase"] != "arranging"
        response = await client.post(
            "/api/confirm", json=indexes(GOOD), headers={**bearer(token), **PROXY}
        )
        assert response.status == 409
        assert (await response.json())["error"] in ("web.err.already_done", "web.err.not_arranging")
        assert await st.state() == before


async def test_no_secret_code_or_token_reaches_the_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with activity_served() as (st, client, fake):
        instance = fake.instance([user(st, 0)])
        shown: list[str] = []
        good = fake.code_for(user(st, 0))
        response = await launch(client, good, instance)
        shown += [good, (await response.json())["access_token"], (await response.json())["pass"]]
        await launch(client, good, instance)  # replayed
        other = fake.code_for(user(st, 1), app=OTHER_APP)
        await launch(client, other, instance)
        shown.append(other)
        await launch(client, fake.code_for(user(st, 1)), instance)  # not in the instance
    assert "activity launch refused" in caplog.text  # the refusals are logged, by reason
    for secret in (CLIENT_SECRET, BOT_TOKEN, *shown):
        assert secret not in caplog.text


async def test_discord_unreachable_is_said_so() -> None:
    async with fake_discord() as fake:
        config = fake.config()
    # the fake is gone: nothing answers at its address
    async with (
        stage(serve=False, platform="discord", chat=CHANNEL, activity=config) as st,
        TestClient(TestServer(st.app.application)) as client,
    ):
        response = await launch(client, "some-code", "i-1-gc-2-3")
        await refused(response, 502, "web.err.activity_unreachable")


async def test_without_the_activity_the_way_is_closed() -> None:
    async with (
        stage(serve=False, platform="discord") as st,
        TestClient(TestServer(st.app.application)) as client,
    ):
        response = await client.post("/api/activity", json={"code": "c", "instance_id": "i-1"})
        await refused(response, 404, "web.err.activity_off")
        # ... and Discord's proxy may not POST to the page.
        response = await client.post("/api/activity", json={}, headers=PROXY)
        await refused(response, 403, "web.err.origin")


@pytest.mark.parametrize("body", [{"code": "", "instance_id": "i-1"}, {"code": "c"}, [1]])
async def test_a_launch_without_a_code_or_instance_asks_nothing_of_discord(body: Any) -> None:
    async with activity_served() as (_, client, fake):
        response = await client.post("/api/activity", json=body, headers=PROXY)
        assert response.status == 400
        assert fake.calls == []


def test_the_policy_names_the_hosts_of_the_ways_that_are_on() -> None:
    both = Entries(telegram=True, activity_client_id=CLIENT_ID).csp()
    assert "https://discord.com" in both and "https://*.discordsays.com" in both
    assert "https://telegram.org" in both
    discord_only = Entries(telegram=False, activity_client_id=CLIENT_ID).csp()
    assert "telegram" not in discord_only
    assert "frame-ancestors 'self' https://discord.com" in discord_only
    link_only = Entries(telegram=False).csp()
    assert "discord" not in link_only and "telegram" not in link_only
    assert link_only.endswith("frame-ancestors 'self'")


async def test_a_discord_only_page_loads_nothing_of_telegram() -> None:
    async with (
        fake_discord() as fake,
        stage(
            serve=False,
            platform="discord",
            chat=CHANNEL,
            activity=fake.config(),
            telegram_token=None,
        ) as st,
        TestClient(TestServer(st.app.application)) as client,
    ):
        response = await client.get("/app/")
        html = await response.text()
        assert "telegram" not in html.lower()
        assert f'data-client-id="{CLIENT_ID}"' in html
        assert "telegram" not in response.headers["Content-Security-Policy"]
        assert "https://*.discordsays.com" in response.headers["Content-Security-Policy"]


def test_the_activity_does_not_start_without_its_id_and_secret() -> None:
    token = "A" * 24 + "." + "B" * 6 + "." + "C" * 27
    with pytest.raises(SettingsError) as error:
        load_settings(
            _env_file=None, discord_activity="true", discord_token=token, webapp_url="https://x.io"
        )
    assert "DISCORD_CLIENT_ID" in str(error.value) and "DISCORD_CLIENT_SECRET" in str(error.value)
    settings = load_settings(
        _env_file=None,
        discord_activity="true",
        discord_token=token,
        discord_client_id=CLIENT_ID,
        discord_client_secret=CLIENT_SECRET,
        webapp_url="https://x.io",
    )
    assert CLIENT_SECRET not in repr(settings)
