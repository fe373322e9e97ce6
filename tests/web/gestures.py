"""What a finger or a mouse does on the arranging page, in Playwright terms.

SortableJS (in fallback mode, the page's one code path for mouse and touch)
starts a drag after a few pixels of movement and finds the place under the
pointer while it moves, so a drag here is a press, a walk in small steps to
the drop point, a short rest there, and a release.
"""

from __future__ import annotations

from typing import Any

STEPS = 8


async def centre(page: Any, selector: str) -> tuple[float, float]:
    box = await page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not on the page"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def drop_point(page: Any, lane: str) -> tuple[float, float]:
    """Just after the last card of ``lane`` (its first place when empty)."""
    cards = page.locator(f'[data-lane="{lane}"] [data-card]')
    count = await cards.count()
    if count:
        last = await cards.nth(count - 1).bounding_box()
        assert last is not None
        return last["x"] + last["width"] + 6, last["y"] + last["height"] / 2
    box = await page.locator(f'[data-lane="{lane}"]').bounding_box()
    assert box is not None
    return box["x"] + 20, box["y"] + box["height"] / 2


async def _arrived(page: Any, token: str, lane: str) -> None:
    """The drop has landed: the page has decided it (a full lane swaps) and
    drawn the lanes again, which it marks by ending ``html.is-dragging``;
    before that the card sits where Sortable put it, a lane maybe over full."""
    await page.locator("html:not(.is-dragging)").wait_for(timeout=3000)
    await page.locator(f'[data-lane="{lane}"] [data-card="{token}"]').wait_for(timeout=3000)


async def mouse_drag(page: Any, token: str, lane: str, *, source: str = "hand") -> None:
    """Drag card ``token`` from ``source`` into ``lane`` with the mouse."""
    x0, y0 = await centre(page, f'[data-lane="{source}"] [data-card="{token}"]')
    x1, y1 = await drop_point(page, lane)
    await page.mouse.move(x0, y0)
    await page.mouse.down()
    for i in range(1, STEPS + 1):
        await page.mouse.move(x0 + (x1 - x0) * i / STEPS, y0 + (y1 - y0) * i / STEPS)
        await page.wait_for_timeout(16)
    await page.wait_for_timeout(70)
    await page.mouse.up()
    await _arrived(page, token, lane)


async def touch_drag(page: Any, token: str, lane: str, *, source: str = "hand") -> None:
    """The same with a finger: touch events through the DevTools protocol
    (Playwright's touchscreen only taps)."""
    cdp = await page.context.new_cdp_session(page)
    x0, y0 = await centre(page, f'[data-lane="{source}"] [data-card="{token}"]')
    x1, y1 = await drop_point(page, lane)
    touch = "Input.dispatchTouchEvent"
    await cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, STEPS + 1):
        point = {"x": x0 + (x1 - x0) * i / STEPS, "y": y0 + (y1 - y0) * i / STEPS}
        await cdp.send(touch, {"type": "touchMove", "touchPoints": [point]})
        await page.wait_for_timeout(16)
    await page.wait_for_timeout(70)
    await cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
    await cdp.detach()
    await _arrived(page, token, lane)


async def tap(page: Any, selector: str) -> None:
    """A finger's tap (touch events, then the click the browser makes of it)."""
    await page.locator(selector).tap()


async def click(page: Any, selector: str) -> None:
    """A mouse's click."""
    await page.locator(selector).click()


async def filled_itself(page: Any, lane: str, tokens: list[str]) -> bool:
    """13 cards: once two lanes are full the page puts the cards left in the
    last lane; ``lane`` holds ``tokens`` already."""
    return sorted((await lanes_on_page(page))[lane]) == sorted(tokens)


async def press_confirm(page: Any) -> None:
    """Confirm as the player sees it: inside Telegram its MainButton (the
    page's own bar is hidden there: one confirm), else the page's button."""
    if await page.locator(".confirm-bar").is_hidden():
        await page.evaluate("window.__pressMainButton()")
    else:
        await page.locator('[data-action="confirm"]').click()


async def place(page: Any, split: dict[str, list[str]], *, touch: bool) -> None:
    """Place ``split`` (lane -> tokens) as a player does: each lane's first
    card dragged (by a finger with ``touch``, else by the mouse), the others
    by a tap or click on the card, then on the lane; a last lane that
    filled itself is left as it is."""
    drag, press = (touch_drag, tap) if touch else (mouse_drag, click)
    for lane, tokens in split.items():
        if await filled_itself(page, lane, tokens):
            continue
        first, *rest = tokens
        await drag(page, first, lane)
        for token in rest:
            await press(page, f'[data-lane="hand"] [data-card="{token}"]')
            await press(page, f'[data-lane-box="{lane}"] .lane-top')
            await page.locator(f'[data-lane="{lane}"] [data-card="{token}"]').wait_for()


async def lanes_on_page(page: Any) -> dict[str, list[str]]:
    """The card tokens in each place, as the page shows them."""
    return await page.evaluate(
        """() => Object.fromEntries(Array.from(document.querySelectorAll('[data-lane]'))
            .map(el => [el.dataset.lane,
                        Array.from(el.querySelectorAll('[data-card]')).map(c => c.dataset.card)]))"""
    )


async def calls(page: Any) -> list[list[Any]]:
    """What the page asked of Telegram.WebApp, in order (the stub's record)."""
    return await page.evaluate("window.__calls")
