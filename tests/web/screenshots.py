"""Screenshots of the arranging page for docs/webapp.md.

    python -m tests.web.screenshots docs/webapp

Deals chosen hands on a real table, serves the page, and photographs it in
Debian's chromium (headless) half-arranged: in 简体中文 and in English, at a
phone's size (as a Telegram Mini App, light and dark theme) and a desktop
browser's (as a Discord player's link opens it); a 多三张 round of 16 cards
with its lanes full and three cards discarded; then after a showdown of
three, the round's result and the player's review. Writes seven PNGs into
the folder given.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from .gestures import filled_itself, press_confirm
from .harness import CHROMIUM_ARGS, HAND, OTHER, Stage, chromium, open_page, stage

JOKERS = ["BJ", "SJ", "As", "Ah", "Kd", "Qc", "Jc", "9h", "8s", "7d", "5c", "4s", "3h"]
JOKERS_OTHER = ["Ks", "Kh", "Qs", "Qh", "Jd", "Td", "9d", "8d", "7c", "6c", "5d", "4d", "2c"]
WILD = ["As", "Ks", "Qs", "Js", "9s", "8h", "8d", "7c", "6c", "6h", "4d", "3s", "2c"]
WILD_OTHER = ["Ah", "Kh", "Qh", "Jh", "Th", "9h", "7h", "5h", "5d", "4h", "3h", "2h", "Td"]
CLUBS = ["Ac", "Kc", "Qc", "Jc", "Tc", "9c", "8c", "Kd", "Qd", "Jd", "9d", "7d", "6d"]
# The others' splits in the showdown: a straight flush and a flush each.
SPLITS = {
    1: {
        "head": ["2h", "5d", "Td"],
        "middle": ["9h", "7h", "6h", "4h", "3h"],
        "tail": ["Ah", "Kh", "Qh", "Jh", "Th"],
    },
    2: {
        "head": ["9c", "8c", "6d"],
        "middle": ["Kd", "Qd", "Jd", "9d", "7d"],
        "tail": ["Ac", "Kc", "Qc", "Jc", "Tc"],
    },
}
# Seat 0's split: legal, but the spade flush broken up (the review finds better).
POOR = {
    "head": ["4d", "3s", "2c"],
    "middle": ["Js", "9s", "7c", "6c", "5h"],
    "tail": ["As", "Ks", "Qs", "8h", "8d"],
}
DARK = {
    "bg_color": "#212121",
    "text_color": "#ffffff",
    "hint_color": "#aaaaaa",
    "link_color": "#8774e1",
    "button_color": "#8774e1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#181818",
    "section_bg_color": "#2c2c2c",
    "destructive_text_color": "#ff595a",
}


async def place(page: Any, lanes: dict[str, list[str]]) -> None:
    """Click each card, then its lane."""
    for lane, tokens in lanes.items():
        if await filled_itself(page, lane, tokens):
            continue  # the last lane took the rest by itself
        for token in tokens:
            await page.locator(f'[data-lane="hand"] [data-card="{token}"]').click()
            await page.locator(f'[data-lane-box="{lane}"] .lane-top').click()


async def settle(page: Any) -> None:
    """Let the evaluate answer arrive and any toast go."""
    await page.wait_for_timeout(600)
    await page.evaluate("document.querySelector('[data-message]').hidden = true")


async def show_down(st: Stage, page: Any) -> None:
    """Seat 0 confirms POOR in the page; the others confirm their SPLITS
    (the page's own confirm, through the desk); the table shows and pays the
    round, and the page shows the result and the review."""
    from bot.web.desk import Desk, Draft
    from bot.web.passes import Pass

    await place(page, POOR)
    await press_confirm(page)
    await page.locator("[data-status]").wait_for()
    desk = Desk(st.manager, clock=st.clock.now)
    state = await st.state()
    for seat, split in SPLITS.items():
        player = st.players[seat]
        cards = state["round"]["hands"][player.key]["cards"]
        draft = Draft(
            *(tuple(cards.index(x) for x in split[n]) for n in ("head", "middle", "tail"))
        )
        grant = Pass(
            player.platform, player.user_id, st.room, st.round_no, int(st.clock.now()) + 60
        )
        await desk.confirm(grant, draft)
    await st.clock.advance(20)  # every step of the showdown, then the pay
    await page.locator('[data-showdown][data-complete="true"]').wait_for(timeout=10000)
    await page.locator("[data-given-up]").wait_for(timeout=10000)


async def shoot(out: Path) -> list[Path]:
    path = chromium()
    if path is None:
        raise SystemExit("chromium is not installed (Debian's package chromium)")
    from playwright.async_api import async_playwright

    made: list[Path] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        # 1. 简体中文, a phone, Telegram's light theme: jokers, two lanes placed
        #    (the third fills itself), the suggestions open.
        async with stage((JOKERS, JOKERS_OTHER), options=["jokers=2"]) as st:
            page = await open_page(browser, st, telegram=True)
            await page.locator('[data-lane="hand"] [data-card]').first.wait_for()
            # (the small joker makes a pair of fives, the big one three aces)
            await place(
                page, {"head": ["SJ", "5c", "4s"], "middle": ["BJ", "As", "Ah", "Kd", "Qc"]}
            )
            await page.locator('[data-action="suggest"]').click()
            await page.locator('[data-suggestion="0"]').wait_for()
            await settle(page)
            made.append(out / "phone-zh-Hans.png")
            await page.screenshot(path=str(made[-1]))
            await page.context.close()
        # 2. English, a phone, Telegram's dark theme, the wild rank 6: a fouled
        #    split (the wild sixes make the middle a pair of kings and the tail
        #    only a pair of jacks).
        async with stage((WILD, WILD_OTHER), language="en", options=["wild=6"]) as st:
            page = await open_page(
                browser, st, telegram=True, locale="en-US", theme=DARK, color_scheme="dark"
            )
            await page.locator('[data-lane="hand"] [data-card]').first.wait_for()
            await place(
                page,
                {
                    "head": ["8h", "8d", "As"],
                    "middle": ["Ks", "Qs", "7c", "6h", "3s"],
                    "tail": ["Js", "9s", "6c", "4d", "2c"],
                },
            )
            await settle(page)
            made.append(out / "phone-en-dark.png")
            await page.screenshot(path=str(made[-1]))
            await page.context.close()
        # 2b. English, a phone, Telegram's light theme, 多三张 (16 cards): the
        #     lanes full, the three left over in their own place.
        extra = (HAND + ["Tc", "Jc", "Qc"], OTHER + ["Kd", "Qd", "Jd"])
        async with stage(extra, language="en", options=["extra3=on"]) as st:
            page = await open_page(browser, st, telegram=True, locale="en-US")
            await page.locator('[data-lane="hand"] [data-card]').first.wait_for()
            await place(
                page,
                {
                    "head": ["8h", "8d", "2c"],
                    "middle": ["7c", "6c", "5h", "4d", "3s"],
                    "tail": ["As", "Ks", "Qs", "Js", "9s"],
                },
            )
            await page.locator('[data-lane="discard"] [data-card]').first.wait_for()
            await settle(page)
            made.append(out / "phone-en-sixteen.png")
            await page.screenshot(path=str(made[-1]))
            await page.context.close()
        # 3. 简体中文 in a desktop browser (a Discord player's link): a legal
        #    split with every lane's category, ready to confirm.
        async with stage((WILD, WILD_OTHER), platform="discord") as st:
            page = await open_page(browser, st, telegram=False, viewport=(1280, 860), mobile=False)
            await page.locator('[data-lane="hand"] [data-card]').first.wait_for()
            await place(
                page,
                {
                    "head": ["6c", "6h", "2c"],
                    "middle": ["8h", "8d", "7c", "4d", "3s"],
                    "tail": ["As", "Ks", "Qs", "Js", "9s"],
                },
            )
            await settle(page)
            made.append(out / "desktop-zh-Hans.png")
            await page.screenshot(path=str(made[-1]))
            await page.context.close()
        # 4. English in a desktop browser, confirmed: waiting for the others.
        async with stage(
            (JOKERS, JOKERS_OTHER), platform="discord", language="en", options=["jokers=2"]
        ) as st:
            page = await open_page(
                browser, st, telegram=False, viewport=(1280, 860), mobile=False, locale="en-US"
            )
            await page.locator('[data-lane="hand"] [data-card]').first.wait_for()
            await page.locator('[data-action="suggest"]').click()
            await page.locator('[data-suggestion="0"]').click()
            await page.locator('[data-action="confirm"]').click()
            await page.locator("[data-status]").wait_for()
            await settle(page)
            made.append(out / "desktop-en-confirmed.png")
            await page.screenshot(path=str(made[-1]))
            await page.context.close()
        # 5. 简体中文, a small phone (360×740), Telegram's light theme: after the
        #    showdown of three, the result and the review (the whole page).
        async with stage((HAND, OTHER, CLUBS)) as st:
            page = await open_page(browser, st, telegram=True, viewport=(360, 740))
            await page.locator('[data-lane="hand"] [data-card]').first.wait_for()
            await show_down(st, page)
            await settle(page)
            made.append(out / "phone-zh-Hans-showdown.png")
            await page.screenshot(path=str(made[-1]), full_page=True)
            await page.context.close()
        # 6. English in a desktop browser, the system's dark scheme (a Discord
        #    link): the same showdown, the review's two splits side by side.
        async with stage((HAND, OTHER, CLUBS), platform="discord", language="en") as st:
            page = await open_page(
                browser,
                st,
                telegram=False,
                viewport=(1280, 860),
                mobile=False,
                locale="en-US",
                color_scheme="dark",
            )
            await page.locator('[data-lane="hand"] [data-card]').first.wait_for()
            await show_down(st, page)
            await settle(page)
            made.append(out / "desktop-en-showdown.png")
            await page.screenshot(path=str(made[-1]), full_page=True)
            await page.context.close()
        await browser.close()
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.web.screenshots", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("folder", type=Path, help="where the PNGs go (docs/webapp)")
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    from bot.solver import config

    # The solver's opponent pools as the tests build them: seconds, not minutes.
    config.configure(pool_hands=300, pool_hands_16=100, cache_dir="off")
    for made in asyncio.run(shoot(args.folder)):
        print(made)
    return 0


if __name__ == "__main__":
    sys.exit(main())
