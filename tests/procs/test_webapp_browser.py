"""The arranging page in a real browser, served by the bot itself: a
``thirteen run`` process (the page on, WEBAPP_URL on 127.0.0.1) against the
strict fake Bot API. Ann opens her private hand's Mini App button in
Debian's chromium (headless, a phone with touch) as Telegram opens it
(``#tgWebAppData=…`` signed with the test bot's token, telegram-web-app.js
answered by the recording stub), drags and taps a fouled split, takes a
suggestion and confirms on the MainButton; the chats then show it, and the
round settles once Bo confirms on the chat's keyboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import expect

from bot.i18n import t
from bot.table.actions import Verb
from bot.views.render_common import sym
from tests.procs.botproc import (
    ANN,
    BO,
    BotProcess,
    Players,
    bot_env,
    free_port,
    launch_data,
    page_button,
    until,
)
from tests.procs.game import Fleet, Script
from tests.telegram.fakebotapi import FakeBotAPI
from tests.telegram.harness import buttons_of
from tests.web.gestures import calls, lanes_on_page, place, tap
from tests.web.harness import (
    LANES,
    category_label,
    foul_clause,
    fouled_split,
    open_url,
    telegram_fragment,
)

EN = "en"
SIZES = {"head": 3, "middle": 5, "tail": 5}


async def test_a_player_arranges_in_the_bots_own_page_and_the_chats_show_it(
    api: FakeBotAPI, browser: Any, tmp_path: Path
) -> None:
    api.opened |= {ANN.id, BO.id}
    port = free_port()
    # Telegram opens only HTTPS Mini Apps; the TLS proxy in front is left
    # out, so the browser goes to the port directly.
    public, base = f"https://127.0.0.1:{port}", f"http://127.0.0.1:{port}"
    env = bot_env(api, f"sqlite:///{tmp_path}/bot.db", WEBAPP_URL=public, WEBAPP_PORT=str(port))
    fleet = Fleet(api, [BotProcess(env, tmp_path)])
    await fleet.start_all()
    players = Players(api)
    script = Script(players, fleet)
    try:
        dealt = (await players.deal(ANN, BO))[ANN.id]

        # The Mini App button of Ann's private hand, opened as Telegram opens it.
        url = page_button(dealt)["web_app"]["url"]
        assert url.startswith(f"{public}/app/?")
        page = await open_url(
            browser,
            url.replace(public, base, 1) + telegram_fragment(launch_data(ANN)),
            locale="en-US",
        )
        page.set_default_timeout(10_000)  # a hang guard on a loaded machine
        await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(13)
        tokens = (await lanes_on_page(page))["hand"]
        # The page holds exactly the cards of the chat's keyboard.
        keyboard = sorted(b["text"] for b in buttons_of(dealt, Verb.PICK))
        assert sorted(sym(x) for x in tokens) == keyboard

        # A fouled split: each lane's first card by a finger's drag, the
        # rest by a tap on the card, then on the lane.
        split, report = fouled_split(tokens)
        await place(page, split, touch=True)
        placed = await lanes_on_page(page)
        assert placed["hand"] == []
        assert {lane: sorted(placed[lane]) for lane in LANES} == {
            lane: sorted(split[lane]) for lane in LANES
        }
        for lane in LANES:
            await expect(page.locator(f'[data-lane-label="{lane}"]')).to_have_text(
                category_label(EN, split[lane])
            )
        foul = page.locator("[data-foul]")
        await expect(foul).to_contain_text(foul_clause(EN, report))
        await expect(page.locator('[data-action="confirm"]')).to_be_disabled()
        made = await calls(page)
        assert ["HapticFeedback.notificationOccurred", "error"] in made
        assert ["HapticFeedback.impactOccurred", "light"] in made
        assert ["disableVerticalSwipes"] in made  # while a finger drags
        # Nothing is stored by dragging: the private hand is as dealt.
        assert buttons_of(players.hand(ANN) or dealt, Verb.PICK)

        # The solver's first suggestion, laid out by a tap; it does not foul.
        await tap(page, '[data-action="suggest"]')
        await tap(page, '[data-suggestion="0"]')
        await expect(foul).to_have_count(0)
        for lane in LANES:
            await expect(page.locator(f'[data-lane="{lane}"] [data-card]')).to_have_count(
                SIZES[lane]
            )
        chosen = await lanes_on_page(page)
        for lane in LANES:
            await expect(page.locator(f'[data-lane-label="{lane}"]')).to_have_text(
                category_label(EN, chosen[lane])
            )

        # Confirm on Telegram's MainButton, as the client presses it.
        main = [c for c in await calls(page) if c[0].startswith("MainButton.")]
        assert main[-3:] == [
            ["MainButton.setText", t(EN, "web.confirm")],
            ["MainButton.enable"],
            ["MainButton.show"],
        ]
        await page.evaluate("window.__pressMainButton()")
        await expect(page.locator("[data-status]")).to_have_text(t(EN, "web.confirmed"))
        made = await calls(page)
        assert ["MainButton.showProgress", False] in made
        assert ["HapticFeedback.notificationOccurred", "success"] in made

        # The private hand shows the confirmed lanes; the table shows Ann ready.
        def confirmed_hand() -> Any:
            hand = players.hand(ANN)
            done = hand is not None and t(EN, "hand.confirmed") in hand.text
            return hand if done else None

        hand = await until(confirmed_hand, "Ann's hand confirmed in the chat")
        assert not buttons_of(hand, Verb.PICK) and not buttons_of(hand, Verb.CONFIRM)
        for lane in LANES:
            (line,) = [x for x in hand.text.split("\n") if x.startswith(t(EN, f"lane.{lane}"))]
            assert sorted(line.split(":", 1)[1].split()) == sorted(sym(x) for x in chosen[lane])
        await until(
            lambda: any("✅ Ann" in m.text and "⏳ Bo" in m.text for m in players.live_tables()),
            "the table showing Ann ready",
        )

        # Bo confirms on the chat's keyboard: the round settles.
        await script.arrange(BO)
        settlement = await until(lambda: players.settlements(1), "the settlement")
        assert "Ann" in settlement[0].text and "Bo" in settlement[0].text
        assert page.problems == []
    finally:
        await fleet.stop_all()
    assert not api.refused
    assert "Traceback" not in fleet.log_text()  # the page's views went to the chats cleanly
