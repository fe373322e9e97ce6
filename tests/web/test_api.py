"""The page's JSON API, without a browser (aiohttp's test client): every
request is someone's and only theirs. Each refused request gets a JSON
error naming its catalog code, and the stored room is exactly as before."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.core.actions import Action
from bot.core.hand import Hand
from bot.core.verbs import Verb
from bot.i18n import LANGUAGES, catalog, t
from bot.views.render_common import clauses
from bot.web.assembly import arranging_page
from bot.web.desk import Desk
from bot.web.server import BURST, CSP, MAX_BODY, WebApp, WebConfig

from .api import FOULED, GOOD, Served, bearer, indexes, refused, served
from .harness import HAND, HAND_16, OTHER, SECRET, SIX_PAIRS_16, SIX_PAIRS_SPLIT, TOKEN

# ---------------------------------------------------------------- Telegram's launch data


async def test_signed_launch_data_opens_a_session_for_that_player_only(served_page: Served) -> None:
    st, client = served_page
    response = await client.post(
        "/api/session",
        json={"init_data": st.launch_data(0), "room": st.room, "round": st.round_no},
    )
    assert response.status == 200
    body = await response.json()
    assert body["hand"]["cards"] == HAND
    # No card of another player leaves the server before the showdown.
    text = json.dumps(body)
    for token in set(OTHER) - set(HAND):
        assert f'"{token}"' not in text
    hand = await client.get("/api/hand", headers=bearer(body["pass"]))
    assert hand.status == 200
    assert (await hand.json())["cards"] == HAND


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda st: st.launch_data(0).replace("P0", "P1"), id="tampered"),
        pytest.param(lambda st: st.launch_data(0, token="999:another-bot"), id="other-token"),
        pytest.param(
            lambda st: st.launch_data(0, auth_date=int(st.clock.now()) - 3601), id="expired"
        ),
        pytest.param(
            lambda st: st.launch_data(0, auth_date=int(st.clock.now()) + 600), id="future"
        ),
        pytest.param(lambda st: st.launch_data(0) + "&user=%7B%22id%22%3A7001%7D", id="duplicate"),
        pytest.param(lambda st: "", id="empty"),
    ],
)
async def test_launch_data_that_is_not_telegram_s_is_refused(
    served_page: Served, forge: Any
) -> None:
    st, client = served_page
    before = await st.state()
    response = await client.post(
        "/api/session", json={"init_data": forge(st), "room": st.room, "round": st.round_no}
    )
    body = await refused(response, 401, "web.err.launch")
    assert "pass" not in body
    assert await st.state() == before


async def test_a_refusal_is_in_the_rooms_language_else_the_players_else_the_browsers() -> None:
    """Each refusal names the language its words are in: the pass's room's
    once the room is known, before that the launching player's Telegram
    language, else the browser's."""
    english = {"Accept-Language": "en-US"}
    async with served(language="zh-Hant") as (st, client):
        response = await client.get(
            "/api/hand", headers={**english, **bearer(st.pass_for(0, user_id="9999"))}
        )
        body = await refused(response, 403, "web.err.not_seated")
        assert (body["language"], body["message"]) == (
            "zh-Hant",
            t("zh-Hant", "web.err.not_seated"),
        )
        response = await client.post(
            "/api/session",
            json={"init_data": st.launch_data(0), "room": st.room, "round": st.round_no + 1},
            headers=english,
        )
        body = await refused(response, 403, "web.err.not_seated")
        assert body["language"] == "zh-Hant"
        response = await client.post(
            "/api/session",
            json={"init_data": st.launch_data(0, language_code="zh-tw"), "room": "nosuch"},
            headers=english,
        )
        body = await refused(response, 400, "web.err.bad_body")
        assert body["language"] == "zh-Hant"  # no room: the player's
        body = await refused(await client.get("/api/hand", headers=english), 401, "web.err.pass")
        assert (body["language"], body["message"]) == ("en", t("en", "web.err.pass"))


async def test_a_telegram_user_who_is_not_seated_gets_no_session(served_page: Served) -> None:
    st, client = served_page
    before = await st.state()
    st.players.append(type(st.players[0])("telegram", "9999", "Eve"))
    response = await client.post(
        "/api/session",
        json={"init_data": st.launch_data(2), "room": st.room, "round": st.round_no},
    )
    await refused(response, 403, "web.err.not_seated")
    # Nor for a round of the room that is not being played.
    response = await client.post(
        "/api/session",
        json={"init_data": st.launch_data(0), "room": st.room, "round": st.round_no + 1},
    )
    await refused(response, 403, "web.err.not_seated")
    response = await client.post(
        "/api/session",
        json={"init_data": st.launch_data(0), "room": "nosuch", "round": st.round_no},
    )
    await refused(response, 404, "web.err.no_room")
    assert await st.state() == before


@pytest.mark.parametrize(
    "pointer",
    [
        pytest.param({"room": "", "round": 0}, id="the-page-with-no-query"),
        pytest.param({}, id="no-fields"),
    ],
)
async def test_launch_data_that_names_no_hand_is_told_where_the_page_opens(
    served_page: Served, pointer: Any
) -> None:
    """The bot's Mini App opened from its profile, or a t.me link without
    startapp: signed launch data and nothing saying which room. The answer
    says where the page opens from; no pass is issued."""
    st, client = served_page
    before = await st.state()
    response = await client.post("/api/session", json={"init_data": st.launch_data(0), **pointer})
    body = await refused(response, 400, "web.err.open_from_hand")
    assert "pass" not in body
    assert await st.state() == before


@pytest.mark.parametrize(
    "room",
    [
        pytest.param(lambda st: st.room + "x" * 16, id="over-long"),  # was cut to 16
        pytest.param(lambda st: (st.room + "0" * 16)[:17], id="seventeen"),
        pytest.param(lambda st: st.room + "/../x", id="slashes"),
        pytest.param(lambda st: st.room + " ", id="space"),
        pytest.param(lambda st: "", id="empty"),
        pytest.param(lambda st: "é" * 3, id="not-ascii"),
    ],
)
async def test_a_session_for_a_malformed_room_id_is_refused(served_page: Served, room: Any) -> None:
    st, client = served_page
    before = await st.state()
    response = await client.post(
        "/api/session",
        json={"init_data": st.launch_data(0), "room": room(st), "round": st.round_no},
    )
    body = await refused(response, 400, "web.err.bad_body")
    assert "pass" not in body
    assert await st.state() == before


# ---------------------------------------------------------------- passes


@pytest.mark.parametrize(
    ("make", "status", "code"),
    [
        (lambda st: st.pass_for(0, secret=b"another-secret"), 401, "web.err.pass"),
        (lambda st: st.pass_for(0, seconds=-1), 401, "web.err.pass"),
        (lambda st: "not-a-pass", 401, "web.err.pass"),
        # someone else's body under player 0's signature
        (
            lambda st: st.pass_for(1).split(".")[0] + "." + st.pass_for(0).split(".")[1],
            401,
            "web.err.pass",
        ),
        # properly signed, but for a user with no hand in this round
        (lambda st: st.pass_for(0, user_id="9999"), 403, "web.err.not_seated"),
        (lambda st: st.pass_for(0, platform="discord"), 403, "web.err.not_seated"),
        (lambda st: st.pass_for(0, round_no=st.round_no - 1), 403, "web.err.not_seated"),
        (lambda st: st.pass_for(0, room_id="nosuch"), 404, "web.err.no_room"),
    ],
    ids=[
        "other-secret",
        "expired",
        "garbage",
        "spliced",
        "not-seated",
        "other-platform",
        "old-round",
        "other-room",
    ],
)
async def test_a_pass_that_opens_no_hand_changes_nothing(
    served_page: Served, make: Any, status: int, code: str
) -> None:
    st, client = served_page
    before = await st.state()
    token = make(st)
    await refused(await client.get("/api/hand", headers=bearer(token)), status, code)
    response = await client.post("/api/confirm", json=indexes(GOOD), headers=bearer(token))
    await refused(response, status, code)
    assert await st.state() == before


async def test_no_pass_and_a_malformed_header_are_refused(served_page: Served) -> None:
    st, client = served_page
    await refused(await client.get("/api/hand"), 401, "web.err.pass")
    headers = {"Authorization": f"Basic {st.pass_for(0)}"}
    await refused(await client.get("/api/hand", headers=headers), 401, "web.err.pass")


async def test_a_pass_shows_its_own_player_s_hand_never_another_s(served_page: Served) -> None:
    st, client = served_page
    mine = await (await client.get("/api/hand", headers=bearer(st.pass_for(0)))).json()
    theirs = await (await client.get("/api/hand", headers=bearer(st.pass_for(1)))).json()
    assert mine["cards"] == HAND and theirs["cards"] == OTHER
    assert not set(json.dumps(mine).split('"')) & (set(OTHER) - set(HAND))


# ---------------------------------------------------------------- submitting


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({**indexes(GOOD), "tail": [0, 1, 2, 3, 13]}, 400, "web.err.bad_cards"),  # not in the hand
        ({**indexes(GOOD), "tail": [0, 1, 2, 3, -1]}, 400, "web.err.bad_cards"),
        ({**indexes(GOOD), "tail": [0, 1, 2, 3, 5]}, 400, "web.err.bad_cards"),  # a duplicate
        ({**indexes(GOOD), "head": [5, 6, 12, 11]}, 400, "web.err.bad_lanes"),  # 4 in the head
        ({**indexes(GOOD), "middle": [7, 8, 9, 10, 11, 4]}, 400, "web.err.bad_lanes"),
        ({**indexes(GOOD), "head": [5, 6]}, 400, "web.err.incomplete"),  # 2 in the head
        ({**indexes(GOOD), "head": ["8h", "8d", "2c"]}, 400, "web.err.bad_lanes"),  # tokens
        ({**indexes(GOOD), "head": [True, 6, 12]}, 400, "web.err.bad_lanes"),
        ({**indexes(GOOD), "head": 5}, 400, "web.err.bad_lanes"),
        ([1, 2, 3], 400, "web.err.bad_lanes"),
        (indexes(FOULED), 400, "web.err.fouled"),
    ],
    ids=[
        "index-13",
        "negative",
        "duplicate",
        "head-4",
        "middle-6",
        "head-2",
        "tokens",
        "bool",
        "not-a-list",
        "not-an-object",
        "fouled",
    ],
)
async def test_a_submit_that_is_not_this_hand_s_legal_split_is_refused(
    served_page: Served, body: Any, status: int, code: str
) -> None:
    st, client = served_page
    before = await st.state()
    response = await client.post("/api/confirm", json=body, headers=bearer(st.pass_for(0)))
    await refused(response, status, code)
    assert await st.state() == before


async def test_a_confirm_is_taken_once(served_page: Served) -> None:
    st, client = served_page
    token = st.pass_for(0)
    response = await client.post("/api/confirm", json=indexes(GOOD), headers=bearer(token))
    assert response.status == 200
    body = await response.json()
    assert body["done"] is True and body["ready"] == {"done": 1, "seated": 2}
    stored = await st.lanes(0)
    assert {lane: sorted(stored[lane]) for lane in GOOD} == {
        lane: sorted(GOOD[lane]) for lane in GOOD
    }
    before = await st.state()
    other = {"head": [5, 6, 7], "middle": [8, 9, 10, 11, 12], "tail": [0, 1, 2, 3, 4]}
    for replay in (indexes(GOOD), other):
        response = await client.post("/api/confirm", json=replay, headers=bearer(token))
        await refused(response, 409, "web.err.already_done")
    await refused(
        await client.post("/api/declare", headers=bearer(token)), 409, "web.err.already_done"
    )
    assert await st.state() == before


def tap_before(st: Any, verbs: tuple[Verb, ...], *taps: tuple[Verb, str | None]) -> None:
    """Player 0's keyboard ``taps`` reach the table just before the page's
    first action of ``verbs`` does (after the page's checks read the hand)."""
    handle = st.manager.handle
    pending = list(taps)

    async def racing(action: Any) -> Any:
        if action.verb in verbs:
            while pending:
                verb, arg = pending.pop(0)
                tap = Action(st.players[0], verb, room_id=st.room, round_no=st.round_no, arg=arg)
                out = await handle(tap)
                assert out.ok, out.reply
        return await handle(action)

    st.manager.handle = racing


async def test_a_keyboard_tap_meanwhile_cannot_change_what_is_confirmed(
    served_page: Served,
) -> None:
    st, client = served_page
    # An eight tapped in the chat just before the page's split is confirmed
    # (when the page laid its split first, that took it out of the head).
    tap_before(st, (Verb.CONFIRM,), (Verb.PICK, str(HAND.index("8h"))))
    response = await client.post("/api/confirm", json=indexes(GOOD), headers=bearer(st.pass_for(0)))
    assert response.status == 200, await response.text()
    hand = await st.hand(0)
    assert hand["done"] is True
    stored = await st.lanes(0)
    assert {lane: sorted(stored[lane]) for lane in GOOD} == {
        lane: sorted(GOOD[lane]) for lane in GOOD
    }


async def test_a_keyboard_confirm_first_leaves_the_page_s_confirm_refused_and_nothing_changed(
    served_page: Served,
) -> None:
    st, client = served_page
    # The chat's keyboard: a legal split tapped (the head, then the middle;
    # the tail is the rest), then confirmed, as the page's request is on its way.
    split = {
        "head": ["4d", "3s", "2c"],
        "middle": ["8h", "8d", "7c", "6c", "5h"],
        "tail": ["As", "Ks", "Qs", "Js", "9s"],
    }
    taps = [(Verb.PICK, str(HAND.index(x))) for x in split["head"] + split["middle"]]
    tap_before(st, (Verb.LAY, Verb.CONFIRM), *taps, (Verb.CONFIRM, None))
    token = bearer(st.pass_for(0))
    response = await client.post("/api/confirm", json=indexes(GOOD), headers=token)
    await refused(response, 409, "web.err.already_done")
    stored = await st.lanes(0)
    assert stored["head"] == split["head"] and stored["middle"] == split["middle"]
    before = await st.state()
    # and the page again, now that its hand shows done
    response = await client.post("/api/confirm", json=indexes(GOOD), headers=token)
    await refused(response, 409, "web.err.already_done")
    assert await st.state() == before


async def test_evaluate_warns_of_a_foul_before_the_tail_is_full(served_page: Served) -> None:
    st, client = served_page
    before = await st.state()
    draft = {**indexes(FOULED), "tail": []}  # a pair of eights over an ace-high middle
    response = await client.post("/api/evaluate", json=draft, headers=bearer(st.pass_for(0)))
    assert response.status == 200
    body = await response.json()
    head, middle = t("zh-Hans", "lane.head"), t("zh-Hans", "lane.middle")
    assert body["foul"] == clauses("zh-Hans", [t("zh-Hans", "err.foul_pair", a=head, b=middle)])
    assert body["labels"]["tail"] is None
    assert await st.state() == before


async def test_a_finished_round_takes_nothing() -> None:
    async with served(arrange_seconds=60) as (st, client):
        token = st.pass_for(0, seconds=3600)
        await st.clock.advance(61)  # the deadline: the table arranges both hands
        await st.clock.advance(60)  # the showdown's steps
        state = await st.state()
        assert state["phase"] != "arranging"
        before = state
        response = await client.post("/api/confirm", json=indexes(GOOD), headers=bearer(token))
        assert response.status == 409
        assert (await response.json())["error"] in ("web.err.already_done", "web.err.not_arranging")
        assert await st.state() == before


async def test_a_declare_without_a_special_is_the_table_s_refusal(served_page: Served) -> None:
    st, client = served_page
    before = await st.state()
    response = await client.post("/api/declare", headers=bearer(st.pass_for(0)))
    assert response.status == 409
    body = await response.json()
    assert body["error"] == "web.err.refused" and body["message"]
    assert await st.state() == before


async def test_sixteen_cards_offer_and_declare_the_special_of_the_thirteen_kept() -> None:
    """多三张: the special is of the 13 cards the draft keeps. The page's
    evaluate says which (none while a draft keeps other cards); a declare
    carries the draft and lays and declares it in one action; without a
    complete draft, or with one that makes no special, nothing changes."""
    async with served(hands=(SIX_PAIRS_16, HAND_16), options=["extra3=on"]) as (st, client):
        auth = bearer(st.pass_for(0))
        cards = (await st.hand(0))["cards"]
        six = indexes(SIX_PAIRS_SPLIT, cards)
        other = {**six, "head": [cards.index("Ac"), *six["head"][1:]]}  # a pair broken
        name = t("zh-Hans", "special.six_pairs")
        response = await client.post("/api/evaluate", json=six, headers=auth)
        assert response.status == 200
        assert (await response.json())["special"]["name"] == name
        for draft in (other, {**six, "tail": six["tail"][:4]}):
            response = await client.post("/api/evaluate", json=draft, headers=auth)
            assert (await response.json())["special"] is None
        before = await st.state()
        await refused(await client.post("/api/declare", headers=auth), 400, "web.err.incomplete")
        response = await client.post("/api/declare", json=other, headers=auth)
        assert response.status == 409 and (await response.json())["error"] == "web.err.refused"
        assert await st.state() == before
        response = await client.post("/api/declare", json=six, headers=auth)
        assert response.status == 200, await response.text()
        body = await response.json()
        assert body["done"] and body["declared"] and body["special"]["name"] == name
        stored = await st.hand(0)
        assert stored["done"] and stored["declared"] == "six_pairs"
        assert {k: sorted(v) for k, v in Hand.from_json(stored).arrangement_tokens().items()} == {
            k: sorted(v) for k, v in SIX_PAIRS_SPLIT.items()
        }


# ---------------------------------------------------------------- the draft kept as the page closes


def counting(st: Any) -> list[Any]:
    """The actions that reach the table from now on."""
    seen: list[Any] = []
    handle = st.manager.handle

    async def counted(action: Any) -> Any:
        seen.append(action)
        return await handle(action)

    st.manager.handle = counted
    return seen


async def test_a_draft_sent_as_the_page_closes_is_stored_on_the_hand(served_page: Served) -> None:
    st, client = served_page
    token = bearer(st.pass_for(0))
    seen = counting(st)
    partial = {"head": [5, 6], "middle": [0], "tail": [12]}  # 13 cards: no tail yet
    response = await client.post("/api/lay", json=partial, headers=token)
    assert response.status == 200, await response.text()
    body = await response.json()
    assert body["lanes"] == {"head": [5, 6], "middle": [0], "tail": []}
    assert body["done"] is False and body["cards"] == HAND
    assert await st.lanes(0) == {"head": ["8h", "8d"], "middle": ["As"], "tail": []}
    assert [a.verb.value for a in seen] == ["ly"]
    # The same draft again: nothing reaches the table, nothing changes.
    before = await st.state()
    response = await client.post("/api/lay", json=partial, headers=token)
    assert response.status == 200
    assert (await response.json())["lanes"] == body["lanes"]
    assert len(seen) == 1 and await st.state() == before
    # A whole split: the tail is the rest.
    response = await client.post("/api/lay", json=indexes(GOOD), headers=token)
    assert response.status == 200
    stored = await st.lanes(0)
    assert {lane: sorted(stored[lane]) for lane in GOOD} == {
        lane: sorted(GOOD[lane]) for lane in GOOD
    }
    assert (await st.hand(0))["done"] is False


async def test_a_sixteen_card_draft_keeps_its_tail_and_three_cards_out() -> None:
    extra = (HAND + ["Tc", "Jc", "Qc"], OTHER + ["Kd", "Qd", "Jd"])
    async with served(hands=extra, options=["extra3=on"]) as (st, client):
        draft = {**indexes(GOOD, extra[0]), "tail": [0, 1, 2, 3, 13]}  # Tc in the tail
        response = await client.post("/api/lay", json=draft, headers=bearer(st.pass_for(0)))
        assert response.status == 200, await response.text()
        assert (await response.json())["lanes"] == draft
        assert (await st.lanes(0))["tail"] == ["As", "Ks", "Qs", "Js", "Tc"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"head": [13]}, 400, "web.err.bad_cards"),
        ({"head": [0], "middle": [0]}, 400, "web.err.bad_cards"),
        ({"head": [0, 1, 2, 3]}, 400, "web.err.bad_lanes"),
        ({"head": "0"}, 400, "web.err.bad_lanes"),
    ],
    ids=["index-13", "duplicate", "head-4", "not-a-list"],
)
async def test_a_draft_that_is_not_this_hand_s_is_refused(
    served_page: Served, body: Any, status: int, code: str
) -> None:
    st, client = served_page
    before = await st.state()
    response = await client.post("/api/lay", json=body, headers=bearer(st.pass_for(0)))
    await refused(response, status, code)
    assert await st.state() == before


async def test_a_draft_after_the_confirm_or_the_round_changes_nothing() -> None:
    async with served(arrange_seconds=60) as (st, client):
        token = bearer(st.pass_for(0, seconds=3600))
        assert (await client.post("/api/confirm", json=indexes(GOOD), headers=token)).status == 200
        before = await st.state()
        response = await client.post("/api/lay", json={"head": [0, 1]}, headers=token)
        await refused(response, 409, "web.err.already_done")
        assert await st.state() == before
        other = bearer(st.pass_for(1, seconds=3600))
        await st.clock.advance(61)  # the deadline: the table arranges the other hand
        await st.clock.advance(60)  # the showdown's steps
        before = await st.state()
        assert before["phase"] != "arranging"
        response = await client.post("/api/lay", json={"head": [0, 1]}, headers=other)
        assert response.status == 409
        assert (await response.json())["error"] in ("web.err.already_done", "web.err.not_arranging")
        assert await st.state() == before


# ---------------------------------------------------------------- the request itself


async def test_an_oversized_body_is_refused(served_page: Served) -> None:
    st, client = served_page
    before = await st.state()
    big = json.dumps({**indexes(GOOD), "pad": "x" * MAX_BODY})
    response = await client.post(
        "/api/confirm",
        data=big,
        headers={**bearer(st.pass_for(0)), "Content-Type": "application/json"},
    )
    await refused(response, 413, "web.err.too_large")
    assert await st.state() == before


async def test_a_cross_origin_post_is_refused_and_no_cors_is_offered(served_page: Served) -> None:
    st, client = served_page
    before = await st.state()
    evil = {"Origin": "https://evil.example"}
    for path, body in (("/api/confirm", indexes(GOOD)), ("/api/evaluate", indexes(GOOD))):
        response = await client.post(path, json=body, headers={**bearer(st.pass_for(0)), **evil})
        await refused(response, 403, "web.err.origin")
        assert "Access-Control-Allow-Origin" not in response.headers
    response = await client.post(
        "/api/session",
        json={"init_data": st.launch_data(0), "room": st.room, "round": st.round_no},
        headers=evil,
    )
    await refused(response, 403, "web.err.origin")
    response = await client.get("/api/hand", headers={**bearer(st.pass_for(0)), **evil})
    assert "Access-Control-Allow-Origin" not in response.headers
    # The page's own origin is fine.
    own = {"Origin": f"http://{client.host}:{client.port}"}
    response = await client.post(
        "/api/evaluate", json=indexes(GOOD), headers={**bearer(st.pass_for(0)), **own}
    )
    assert response.status == 200
    assert await st.state() == before


@pytest.mark.parametrize(
    ("page_url", "origin", "host", "allowed"),
    [
        # nginx's `proxy_set_header Host $host` drops the port of WEBAPP_URL
        ("https://example.org:8443", "https://example.org:8443", "example.org", True),
        ("https://Example.ORG:8443/", "https://example.org:8443", "example.org", True),
        ("https://example.org:443", "https://example.org", "127.0.0.1:8080", True),
        ("https://example.org", "https://EXAMPLE.org:443", "127.0.0.1:8080", True),
        # the proxy passed the whole host: still the same origin
        ("https://example.org:8443", "https://example.org:8443", "example.org:8443", True),
        # another site, another port, another scheme: refused
        ("https://example.org:8443", "https://evil.example", "example.org", False),
        ("https://example.org:8443", "https://example.org:9443", "example.org", False),
        ("https://example.org:8443", "http://example.org:8443", "example.org", False),
        ("https://example.org:8443", "https://example.org.evil.example:8443", "example.org", False),
        ("https://example.org:8443", "null", "example.org", False),
    ],
)
async def test_the_page_s_origin_is_its_public_address_behind_a_proxy(
    served_page: Served, page_url: str, origin: str, host: str, allowed: bool
) -> None:
    st, _ = served_page
    config = WebConfig(TOKEN, SECRET, clock=st.clock.now, page_url=page_url)
    app = WebApp(Desk(st.manager, clock=st.clock.now), config)
    async with TestClient(TestServer(app.application)) as client:
        headers = {**bearer(st.pass_for(0)), "Origin": origin, "Host": host}
        response = await client.post("/api/evaluate", json=indexes(GOOD), headers=headers)
        if allowed:
            assert response.status == 200, await response.text()
        else:
            await refused(response, 403, "web.err.origin")
        # No Origin at all (not a browser): accepted.
        response = await client.post(
            "/api/evaluate",
            json=indexes(GOOD),
            headers={**bearer(st.pass_for(0)), "Host": host},
        )
        assert response.status == 200


async def test_thirteen_run_s_page_takes_its_origin_from_webapp_url() -> None:
    settings = Settings(
        _env_file=None,
        webapp_url="https://example.org:8443",
        webapp_secret=SECRET.decode(),
        telegram_token=None,
    )
    async with served() as (st, _):
        app = arranging_page(settings, st.manager, clock=st.clock.now)
        async with TestClient(TestServer(app.application)) as client:
            for origin, status in (
                ("https://example.org:8443", 200),
                ("https://evil.example", 403),
            ):
                headers = {**bearer(st.pass_for(0)), "Origin": origin, "Host": "example.org"}
                response = await client.post("/api/evaluate", json=indexes(GOOD), headers=headers)
                assert response.status == status, await response.text()


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/confirm", 405, "web.err.method"),
        ("PUT", "/api/lay", 405, "web.err.method"),
        ("DELETE", "/api/hand", 405, "web.err.method"),
        ("POST", "/api/hand", 405, "web.err.method"),
        ("GET", "/api/nosuch", 404, "web.err.not_found"),
        ("POST", "/api/nosuch", 404, "web.err.not_found"),
        ("GET", "/app/static/nosuch.js", 404, "web.err.not_found"),
        ("GET", "/app/nosuch", 404, "web.err.not_found"),
        ("POST", "/api/confirm", 403, "web.err.origin"),  # a refusal of the guard itself
        ("GET", "/api/hand", 401, "web.err.pass"),  # and of a handler
    ],
)
async def test_every_refusal_is_a_json_error_with_the_security_headers(
    served_page: Served, method: str, path: str, status: int, code: str
) -> None:
    st, client = served_page
    before = await st.state()
    headers = {"Origin": "https://evil.example"} if code == "web.err.origin" else {}
    response = await client.request(method, path, headers=headers)
    await refused(response, status, code)
    assert response.headers["Content-Security-Policy"] == CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Cache-Control"] == "no-store"
    if status == 405:
        assert "Allow" in response.headers
    assert await st.state() == before


async def test_bodies_that_are_not_json_are_refused(served_page: Served) -> None:
    st, client = served_page
    before = await st.state()
    token = bearer(st.pass_for(0))
    response = await client.post(
        "/api/confirm", data="head=1", headers={**token, "Content-Type": "text/plain"}
    )
    await refused(response, 415, "web.err.bad_body")
    response = await client.post(
        "/api/confirm", data="{nope", headers={**token, "Content-Type": "application/json"}
    )
    await refused(response, 400, "web.err.bad_body")
    response = await client.post("/api/session", json=["init_data"])
    await refused(response, 400, "web.err.bad_body")
    response = await client.post(
        "/api/session", json={"init_data": st.launch_data(0), "room": st.room, "round": "1"}
    )
    await refused(response, 400, "web.err.bad_body")
    assert await st.state() == before


async def test_a_flood_from_one_player_is_slowed_down(served_page: Served) -> None:
    st, client = served_page
    token = bearer(st.pass_for(0))
    burst = int(BURST)
    statuses = [(await client.get("/api/hand", headers=token)).status for _ in range(burst + 5)]
    assert statuses[:burst] == [200] * burst
    assert 429 in statuses[burst:]
    await refused(await client.get("/api/hand", headers=token), 429, "web.err.slow_down")
    # Another player is not slowed down by it.
    assert (await client.get("/api/hand", headers=bearer(st.pass_for(1)))).status == 200


# ---------------------------------------------------------------- the page and its words


async def test_the_page_is_served_with_a_policy_telegram_can_frame(served_page: Served) -> None:
    st, client = served_page
    response = await client.get("/app/")
    assert response.status == 200
    policy = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'self' https://web.telegram.org" in policy
    assert "script-src 'self' https://telegram.org" in policy
    assert "unsafe-inline" not in policy
    html = await response.text()
    assert "https://telegram.org/js/telegram-web-app.js" in html
    for path in ("static/app.js", "static/app.css", "static/vendor/Sortable.min.js"):
        assert path in html
        file = await client.get(f"/app/{path}")
        assert file.status == 200, path
        assert file.headers["Content-Security-Policy"] == policy
    await refused(await client.get("/app/strings/xx.json"), 404, "web.err.language")


STATIC = Path(__file__).resolve().parents[2] / "bot" / "web" / "static"
WEB = Path(__file__).resolve().parents[2] / "bot" / "web"


def page_keys() -> set[str]:
    """Every catalog key the page names: word("…") in app.js (and the
    prefixes it completes), data-word in index.html, every code the server
    answers with."""
    script = (STATIC / "files" / "app.js").read_text(encoding="utf-8")
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    keys = set(re.findall(r'word\("([a-z_.]+[a-z_])"', script))
    keys |= set(re.findall(r'data-word="([^"]+)"', html))
    prefixes = set(re.findall(r'word\("([a-z_.]+\.)" \+', script))
    assert prefixes == {"web.joker.", "web.joker_face.", "web.rank.", "web.suit.", "lane."}
    keys |= {f"web.joker.{k}" for k in ("big", "small")}
    keys |= {f"web.joker_face.{k}" for k in ("big", "small")}
    keys |= {f"web.rank.{n}" for n in range(2, 15)}
    keys |= {f"web.suit.{s}" for s in "shdc"}
    keys |= {f"lane.{lane}" for lane in ("head", "middle", "tail")}
    for source in WEB.glob("*.py"):
        keys |= set(re.findall(r'"(web\.err\.[a-z_]+)"', source.read_text(encoding="utf-8")))
    return keys


def test_every_word_the_page_and_server_use_is_in_every_catalog() -> None:
    keys = page_keys()
    assert {"web.err.origin", "web.err.fouled", "web.confirm", "web.rank.14"} <= keys
    for language in LANGUAGES:
        missing = {key for key in keys if key not in catalog(language)}
        assert not missing, (language, sorted(missing))


async def test_the_strings_route_serves_the_page_s_words_only(served_page: Served) -> None:
    _, client = served_page
    for language in LANGUAGES:
        words = await (await client.get(f"/app/strings/{language}.json")).json()
        assert page_keys() <= set(words)
        assert all(k.startswith(("web.", "cat.", "special.", "lane.", "moment.")) for k in words)


def test_the_page_itself_holds_no_words() -> None:
    """Every word comes from the catalogs: no text in index.html's body, no
    Chinese and no English sentence in app.js's strings."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    body = re.sub(r"<[^>]+>", "", html.split("<body>")[1])
    assert body.strip() == ""
    assert re.search(r"<title>\s*</title>", html)
    script = (STATIC / "files" / "app.js").read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", script, flags=re.S)
    literals = re.findall(r'"((?:[^"\\]|\\.)*)"', code)
    assert not [s for s in literals if re.search(r"[\u4e00-\u9fff]", s)]
    assert not [s for s in literals if re.search(r"[A-Za-z]+ [a-z]+ [a-z]+", s)]
    assert "style=" not in html and "<script>" not in html and "<style" not in html
