"""After the showdown: the round's showdown and the player's review (复盘)
in the page (GET /api/showdown), from the table's own stored result.

No card of another player leaves the server before the table shows it:
nothing while the round is arranged, and during the showdown only the
lanes its steps revealed. Only a player seated in that round, with a pass
for it, is answered; a refusal is the server's JSON error and changes
nothing."""

from __future__ import annotations

import json

from playwright.async_api import expect

from bot.core.hand import Hand
from bot.i18n import t
from bot.table.actions import Verb
from bot.views.render_common import category, special
from bot.web import passes
from bot.web.links import GRACE_SECONDS
from tests.printed import printed_points
from tests.table.helpers import act

from .api import GOOD, STEP, bearer, confirm, indexes, refused, served, showdown
from .gestures import filled_itself, press_confirm
from .harness import HAND, OTHER, SECRET, open_page

# A legal split of OTHER: a straight flush in the tail, a flush in the middle.
OTHER_GOOD = {
    "head": ["2h", "5d", "Td"],
    "middle": ["9h", "7h", "6h", "4h", "3h"],
    "tail": ["Ah", "Kh", "Qh", "Jh", "Th"],
}
# A legal but poor split of HAND (the spade flush broken up): the review
# finds a better one.
POOR = {
    "head": ["4d", "3s", "2c"],
    "middle": ["Js", "9s", "7c", "6c", "5h"],
    "tail": ["As", "Ks", "Qs", "8h", "8d"],
}
HIDDEN_OF_OTHER = set(OTHER) - set(HAND)


def leaked(text: str, tokens: set[str]) -> set[str]:
    return {token for token in tokens if f'"{token}"' in text}


async def test_no_showdown_and_no_card_while_the_round_is_arranged() -> None:
    async with served() as (st, client):
        mine = st.pass_for(0)
        before = await st.state()
        response = await client.get("/api/showdown", headers=bearer(mine))
        body = await refused(response, 409, "web.err.no_showdown")
        assert not leaked(json.dumps(body), HIDDEN_OF_OTHER)
        assert await st.state() == before
        # Confirmed, the others still arranging: still nothing.
        await confirm(client, mine, GOOD, HAND)
        before = await st.state()
        response = await client.get("/api/showdown", headers=bearer(mine))
        body = await refused(response, 409, "web.err.no_showdown")
        assert not leaked(json.dumps(body), HIDDEN_OF_OTHER)
        assert await st.state() == before


async def test_the_showdown_shows_only_the_lanes_its_steps_revealed() -> None:
    async with served() as (st, client):
        mine = st.pass_for(0)
        await confirm(client, mine, GOOD, HAND)
        await confirm(client, st.pass_for(1), OTHER_GOOD, OTHER)
        state = await st.state()
        assert state["phase"] == "showdown" and state["round"]["step"] == 0
        body = await showdown(client, mine)
        assert body["complete"] is False and body["revealed"] == ["head"]
        me, other = body["seats"]
        assert me["me"] and me["lanes"] == GOOD  # this player's own lanes, all of them
        assert other["lanes"] == {"head": OTHER_GOOD["head"], "middle": None, "tail": None}
        assert other["labels"]["middle"] is None and other["labels"]["tail"] is None
        # The other's middle and tail are not in the answer at all; no totals yet.
        unseen = set(OTHER_GOOD["middle"] + OTHER_GOOD["tail"])
        assert not leaked(json.dumps(body), unseen)
        assert me["total"] is None and other["total"] is None and other["versus"] is None
        assert body["review"] == {"status": "pending"}

        await st.clock.advance(STEP)  # the middles
        body = await showdown(client, mine)
        assert body["revealed"] == ["head", "middle"]
        other = body["seats"][1]
        assert other["lanes"]["middle"] == OTHER_GOOD["middle"] and other["lanes"]["tail"] is None
        assert not leaked(json.dumps(body), set(OTHER_GOOD["tail"]))


async def test_after_the_showdown_the_page_gets_the_table_s_stored_result() -> None:
    async with served() as (st, client):
        mine = st.pass_for(0, seconds=3600)
        await confirm(client, mine, POOR, HAND)
        await confirm(client, st.pass_for(1), OTHER_GOOD, OTHER)
        await st.clock.advance(4 * STEP)  # every step, then the pay
        state = await st.state()
        rnd = state["round"]
        assert rnd["settled"] and state["phase"] == "lobby"
        before = state
        body = await showdown(client, mine)
        assert await st.state() == before  # reading changes nothing
        assert body["complete"] is True and body["round"] == st.round_no
        settlement = rnd["result"]["settlement"]
        players = {p["id"]: p for p in settlement["players"]}
        keys = [p.key for p in st.players]
        assert [s["key"] for s in body["seats"]] == keys  # this player first
        for seat in body["seats"]:
            key = seat["key"]
            assert seat["name"] == state["names"][key]
            assert seat["lanes"] == Hand.from_json(rnd["hands"][key]).arrangement_tokens()
            expected = [category("zh-Hans", lane["category"]) for lane in players[key]["lanes"]]
            assert [seat["labels"][lane] for lane in ("head", "middle", "tail")] == expected
            assert seat["total"] == settlement["totals"][key]
        (pair,) = settlement["pairs"]
        versus = body["seats"][1]["versus"]
        sign = 1 if pair["a"] == keys[0] else -1
        assert versus["score"] == sign * pair["score"] == settlement["totals"][keys[0]]
        assert list(versus["lanes"].values()) == [sign * x for x in pair["lanes"]]
        # what the score is made of, in words that carry each part's points
        texts = [x["text"] for x in versus["parts"]]
        assert [x["points"] for x in versus["parts"]] == [printed_points(x) for x in texts]
        assert sum(printed_points(x) for x in texts) == versus["score"]
        assert texts[0].startswith(t("zh-Hans", "lane.head"))

        # The review is the table's, stored as it paid the round.
        stored = rnd["review"][keys[0]]
        review = body["review"]
        assert review["status"] == "ready"
        assert review["mine"]["lanes"] == stored["mine"] == POOR
        assert review["best"]["lanes"] == stored["best"]
        assert review["given_up"] == stored["given_up"] > 0
        assert review["best_is_mine"] is False
        for name in ("mine_ev", "best_ev", "actual", "best_actual"):
            assert review[name] == stored[name]
        # Nobody else's review is in it.
        assert "review" not in json.dumps(body["seats"])


async def test_a_declared_special_is_shown_with_the_specials() -> None:
    six_pairs = ["2s", "2h", "3d", "3h", "4s", "4h", "5c", "5d", "7s", "7h", "9c", "9d", "Kc"]
    async with served(hands=(HAND, six_pairs)) as (st, client):
        mine = st.pass_for(0, seconds=3600)
        assert (await client.post("/api/declare", headers=bearer(st.pass_for(1)))).status == 200
        await confirm(client, mine, GOOD, HAND)
        body = await showdown(client, mine)
        other = body["seats"][1]
        assert other["lanes"] == {"head": None, "middle": None, "tail": None}
        assert other["special"] is None
        assert not leaked(json.dumps(body), set(six_pairs) - set(HAND))
        await st.clock.advance(3 * STEP)  # head, middle, tail: the specials' step
        body = await showdown(client, mine)
        assert body["revealed"][-1] == "specials"
        other = body["seats"][1]
        assert other["special"] == special("zh-Hans", "six_pairs")
        assert sorted(sum(other["lanes"].values(), [])) == sorted(six_pairs[:13])


async def test_only_a_seated_player_of_that_round_is_answered() -> None:
    async with served() as (st, client):
        await confirm(client, st.pass_for(0), GOOD, HAND)
        await confirm(client, st.pass_for(1), OTHER_GOOD, OTHER)
        await st.clock.advance(4 * STEP)
        before = await st.state()
        for token, status, code in (
            (st.pass_for(0, user_id="9999"), 403, "web.err.not_seated"),
            (st.pass_for(0, platform="discord"), 403, "web.err.not_seated"),
            (st.pass_for(0, round_no=st.round_no + 1), 403, "web.err.not_seated"),
            (st.pass_for(0, round_no=0), 403, "web.err.not_seated"),
            (st.pass_for(0, room_id="nosuch"), 404, "web.err.no_room"),
            (st.pass_for(0, secret=b"another-secret"), 401, "web.err.pass"),
            (st.pass_for(0, seconds=-1), 401, "web.err.pass"),
        ):
            response = await client.get("/api/showdown", headers=bearer(token))
            body = await refused(response, status, code)
            assert not leaked(json.dumps(body), set(OTHER) | set(HAND))
        response = await client.get("/api/showdown")
        await refused(response, 401, "web.err.pass")
        assert await st.state() == before


async def test_after_the_next_deal_the_round_s_stored_settlement_answers() -> None:
    async with served() as (st, client):
        mine = st.pass_for(0, seconds=3600)
        await confirm(client, mine, GOOD, HAND)
        await confirm(client, st.pass_for(1), OTHER_GOOD, OTHER)
        await st.clock.advance(4 * STEP)
        shown = await showdown(client, mine)
        owner = st.players[0]
        assert (await act(st.manager, owner, Verb.START, room_id=st.room)).ok
        state = await st.state()
        assert state["round"]["no"] == st.round_no + 1 and state["phase"] == "arranging"
        again = await showdown(client, mine)
        shown.pop("now"), again.pop("now")
        assert again == shown
        # Not a card of the new round; someone not seated then is still refused.
        new_cards = set(state["round"]["hands"][owner.key]["cards"]) | set(
            state["round"]["hands"][st.players[1].key]["cards"]
        )
        assert not leaked(json.dumps(again), new_cards - set(HAND) - set(OTHER))
        response = await client.get(
            "/api/showdown", headers=bearer(st.pass_for(0, user_id="9999", seconds=3600))
        )
        await refused(response, 403, "web.err.not_seated")
        # The new round's own showdown is not there yet.
        response = await client.get(
            "/api/showdown", headers=bearer(st.pass_for(0, round_no=st.round_no + 1))
        )
        await refused(response, 409, "web.err.no_showdown")


async def test_a_session_s_pass_lives_until_the_showdown_is_read() -> None:
    async with served(arrange_seconds=60) as (st, client):
        response = await client.post(
            "/api/session",
            json={"init_data": st.launch_data(0), "room": st.room, "round": st.round_no},
        )
        assert response.status == 200
        body = await response.json()
        grant = passes.check(body["pass"], SECRET, st.clock.now())
        deadline = body["hand"]["deadline"]
        assert grant.expires == int(deadline + GRACE_SECONDS)
        await confirm(client, body["pass"], GOOD, HAND)
        # The other never confirms: the deadline arranges their hand, then the showdown.
        await st.clock.advance(61 + 4 * STEP)
        assert st.clock.now() > deadline
        shown = await showdown(client, body["pass"])
        assert shown["complete"] is True
        await st.clock.advance(GRACE_SECONDS)
        response = await client.get("/api/showdown", headers=bearer(body["pass"]))
        await refused(response, 401, "web.err.pass")


# ---------------------------------------------------------------- in the browser


async def test_after_confirming_the_page_shows_the_showdown_and_the_review(browser):
    """A phone (360×740, touch): the player confirms a poor split, the other
    confirms through the API, and the page, polling, shows the showdown as
    it unfolds, then the result and the review beside the best split."""
    from .harness import stage

    async with stage() as st:
        page = await open_page(browser, st, telegram=True, viewport=(360, 740))
        page.set_default_timeout(8000)
        zh = "zh-Hans"
        await expect(page.locator(".board [data-card]")).to_have_count(13)
        for lane, tokens in POOR.items():
            if await filled_itself(page, lane, tokens):
                continue  # the last lane took the rest by itself
            for token in tokens:
                await page.locator(f'.board [data-lane="hand"] [data-card="{token}"]').tap()
                await page.locator(f'[data-lane-box="{lane}"] .lane-top').tap()
        await expect(page.locator('[data-action="confirm"]')).to_be_enabled()
        await press_confirm(page)  # inside Telegram: its MainButton
        await expect(page.locator("[data-status]")).to_have_text(t(zh, "web.confirmed"))
        await expect(page.locator("[data-showdown]")).to_be_hidden()

        import aiohttp

        async with aiohttp.ClientSession() as http:
            token = st.pass_for(1)
            async with http.post(
                f"{st.base}/api/confirm",
                json=indexes(OTHER_GOOD, OTHER),
                headers=bearer(token),
            ) as answer:
                assert answer.status == 200, await answer.text()

        # The showdown's first step: the heads; the other's middle and tail face down.
        box = page.locator("[data-showdown]")
        await expect(box).to_be_visible()
        me = page.locator(f'[data-seat="{st.players[0].key}"]')
        other = page.locator(f'[data-seat="{st.players[1].key}"]')
        await expect(page.locator("[data-seat]").first).to_have_attribute(
            "data-seat", st.players[0].key
        )
        for lane in ("head", "middle", "tail"):
            cards = me.locator(f'[data-lane="{lane}"] [data-card]')
            await expect(cards).to_have_count(len(POOR[lane]))
        await expect(other.locator('[data-lane="head"] [data-card]')).to_have_count(3)
        await expect(other.locator('[data-lane="tail"] [data-card]')).to_have_count(0)
        await expect(page.locator("[data-review]")).to_contain_text(t(zh, "web.review_pending"))

        await st.clock.advance(4 * STEP)  # the rest of the showdown and the pay
        await expect(box).to_have_attribute("data-complete", "true")
        state = await st.state()
        rnd = state["round"]
        for lane, tokens in (
            Hand.from_json(rnd["hands"][st.players[1].key]).arrangement_tokens().items()
        ):
            shown = other.locator(f'[data-lane="{lane}"] [data-card]')
            assert await shown.evaluate_all("els => els.map(e => e.dataset.card)") == tokens
        await expect(other.locator('[data-lane="tail"]').locator("xpath=..")).to_contain_text(
            t(zh, "cat.straight_flush")
        )
        total = rnd["result"]["settlement"]["totals"][st.players[0].key]
        await expect(me.locator("[data-total]")).to_have_attribute("data-total", str(total))
        # against the other: the parts, each with its points, add up to my total
        parts = other.locator(".seat-parts .seat-part")
        await expect(parts.first).to_be_visible()
        texts = await parts.all_inner_texts()
        assert len(texts) >= 3 and sum(printed_points(x) for x in texts) == total

        review = page.locator("[data-review]")
        stored = rnd["review"][st.players[0].key]
        given = review.locator("[data-given-up]")
        await expect(given).to_have_attribute("data-given-up", str(stored["given_up"]))
        await expect(given).to_have_text(t(zh, "web.given_up", points=f"{stored['given_up']:.2f}"))
        best = review.locator('[data-split="best"]')
        for lane, tokens in stored["best"].items():
            cards = best.locator(f'[data-lane="{lane}"] [data-card]')
            assert await cards.evaluate_all("els => els.map(e => e.dataset.card)") == tokens
        mine = review.locator('[data-split="mine"]')
        for lane, tokens in POOR.items():
            cards = mine.locator(f'[data-lane="{lane}"] [data-card]')
            assert await cards.evaluate_all("els => els.map(e => e.dataset.card)") == tokens
        # The page fits the phone: nothing wider than the screen.
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360
        assert page.problems == []
