"""Bot API calls per round per player, measured on scripted Telegram games.

Runs whole rounds with 2, 3 and 4 players through the real
python-telegram-bot client, the real TableManager and the fake Bot API
server of tests/telegram, and counts every HTTP call the bot makes (start-up
calls excluded). Each player taps 8 cards and confirms (taking a suggestion
when the tapped split fouls), as a person would.

Baseline, counted in the same run: one call per View the table produced plus
one answer per press (what an adapter sending every view would cost; every
one of those views would be a NEW message, while here most are edits).
Per round per player unless the column says "/round".
Modes:
  edit       edit in place, skip unchanged messages, no coalescing window
  coalesce   the same + 0.3 s coalescing, players tapping in bursts
             (presses faster than the window, as a quick thumb does)
  late       as coalesce, but the players take their time: one after
             another they start to tap over the first 100 s of the 120 s
             round (fake clock), so the private hands' countdown steps
             and the reminder happen as they do in a real game
  page       0.3 s coalescing, every player arranging in the arranging page
             as `thirteen run` serves it (bot/web/assembly.py), over HTTP:
             opens it from the private hand's button (launch data for a
             session), asks for suggestions, confirms the first, looking at
             the page ``--think`` seconds before each; no taps

Deals are seeded (``--seed``; each player count gets its own seed derived
from it), so a run is reproducible and two branches can be compared on the
same deals. ``--detail`` adds the calls per round by method, group and
private chats apart.

    .venv/bin/python -m bot bench telegram [--rounds 4]   (= python bench/telegram_bench.py)
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.table.actions import Verb  # noqa: E402
from bot.table.clock import FakeClock  # noqa: E402
from bot.table.manager import TableManager  # noqa: E402
from tests.telegram.fakebotapi import FakeBotAPI  # noqa: E402
from tests.telegram.harness import TOKEN, Harness, TgUser, buttons_of  # noqa: E402
from tests.telegram.play import (  # noqa: E402
    arrange_by_picking,
    deal_again,
    open_room,
    reveal,
    start_round,
    table,
)
from tests.telegram.play import (
    players as seated,
)
from tests.web.harness import telegram_launch_data  # noqa: E402

STARTUP = {"getMe", "setMyCommands", "deleteWebhook"}
SENDS = {"sendMessage", "sendPhoto"}  # new messages (a hand or a showdown is a photo)


async def play_round_in_page(
    h: Harness, users: list[TgUser], clock: FakeClock, page: Any, think: float
) -> None:
    """Each player opens the page from the private hand's button (a session
    traded for signed launch data), asks for suggestions, and confirms the
    first: HTTP requests to the page as ``thirteen run`` serves it
    (bot/web/assembly.py: the views of the page's actions go to the
    platforms at once). Between the page's requests the player looks at
    the page for ``think`` seconds (real time: the delivery's coalescing
    window is real time too)."""
    for user in users:
        hand = h.hand_message(user)
        room, round_no = (button_room_round(b) for b in buttons_of(hand, Verb.PICK)[:1]).__next__()
        signed = telegram_launch_data(user.id, user.first_name, now=clock.now(), token=TOKEN)
        launch = {"init_data": signed, "room": room, "round": round_no}
        session = await page.post("/api/session", json=launch)
        assert session.status == 200, await session.text()
        auth = {"Authorization": f"Bearer {(await session.json())['pass']}"}
        await asyncio.sleep(think)
        shown = await page.post("/api/suggest", headers=auth)
        assert shown.status == 200, await shown.text()
        best = (await shown.json())["suggestions"][0]
        split = {lane: best[lane] for lane in ("head", "middle", "tail")}
        await asyncio.sleep(think)
        done = await page.post("/api/confirm", json=split, headers=auth)
        assert done.status == 200, await done.text()
        await h.outbox.drain()
    await reveal(h, clock)


# The arranging page's settings, where the page is on.
PAGE = {"webapp_url": "https://bench.example.org", "webapp_secret": "telegram-bench"}


def serve_page(h: Harness, manager: TableManager, sink: Any, clock: FakeClock) -> Any:
    """The arranging page as ``thirteen run`` assembles it over ``manager``
    (its button on the private hands, the views of its actions handed to
    the platforms' ``sink``), and an HTTP client of it."""
    from aiohttp.test_utils import TestClient, TestServer

    from bot.config import Settings
    from bot.web.assembly import arranging_page

    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, telegram_token=TOKEN, **PAGE
    )
    page = arranging_page(settings, manager, deliver=sink, clock=clock.now)
    return TestClient(TestServer(page.application))


def button_room_round(button: dict[str, Any]) -> tuple[str, int]:
    from bot.table.actions import decode

    room, round_no, _, _ = decode(button["callback_data"])
    return room, round_no


async def play_round(
    h: Harness, users: list[TgUser], clock: FakeClock, burst: bool, late: bool = False
) -> None:
    for user in users:
        if late:  # the n-th player starts after n / players of 100 s
            # in 10 s steps, each delivered before the next (the timers'
            # views 30 s apart are not merged by the coalescing window, as
            # in a real game)
            for _ in range(10):
                await clock.advance(10 / len(users))
                await h.outbox.drain()
        await arrange_by_picking(h, user, h.burst if burst else None)
    await reveal(h, clock)


async def measure(
    players: int, rounds: int, mode: str, seed: int = 1, think: float = 0.5
) -> tuple[dict[str, float], dict[str, float]]:
    api = FakeBotAPI()
    await api.start()
    users = seated(players)
    api.opened |= {u.id for u in users}
    produced = collections.Counter()
    window = 0.3 if mode in ("coalesce", "late", "page") else 0.0
    # the platform is built with the page's links where the page is on
    page_on = PAGE if mode == "page" else {}
    rng = random.Random(seed * 1000 + players)
    async with table(api, rng=rng, coalesce_seconds=window, **page_on) as (h, manager, clock):
        original_handle = manager.handle

        async def counting_handle(action):  # type: ignore[no-untyped-def]
            outcome = await original_handle(action)
            produced["views"] += len(outcome.views)
            return outcome

        manager.handle = counting_handle  # type: ignore[method-assign]
        sink = manager._sink

        async def counting_sink(views):  # type: ignore[no-untyped-def]
            produced["views"] += len(views)
            await sink(views)

        manager.set_sink(counting_sink)
        page = serve_page(h, manager, sink, clock) if mode == "page" else None
        if page is not None:
            await page.start_server()
        await open_room(h, users[0], *users[1:])
        start_calls = len(api.calls)
        start_views = produced["views"]
        presses_before = len(api.calls_of("answerCallbackQuery"))
        for n in range(rounds):
            if n == 0:
                await start_round(h, users[0])
            else:
                await deal_again(h, users[0])
            if page is not None:
                await play_round_in_page(h, users, clock, page, think)
            else:
                await play_round(
                    h, users, clock, burst=mode in ("coalesce", "late"), late=mode == "late"
                )
        calls = [c for c in api.calls[start_calls:] if c.method not in STARTUP]
        presses = len(api.calls_of("answerCallbackQuery")) - presses_before
        if page is not None:
            await page.close()
    await api.stop()
    per = rounds * players
    group = [c for c in calls if str(c.params.get("chat_id", "")).startswith("-")]
    by_method: collections.Counter[str] = collections.Counter()
    for c in calls:
        where = "group" if str(c.params.get("chat_id", "")).startswith("-") else "private"
        if c.method == "answerCallbackQuery":
            where = "press"
        by_method[f"{where} {c.method}"] += 1
    detail = {k: v / rounds for k, v in sorted(by_method.items())}
    return {
        "views": (produced["views"] - start_views) / per,
        "baseline": (produced["views"] - start_views + presses) / per,
        "calls": len(calls) / per,
        "sends": sum(c.method in SENDS for c in calls) / per,
        "edits": sum(c.method.startswith("edit") for c in calls) / per,
        "answers": presses / per,
        "group_sends": sum(c.method in SENDS for c in group) / rounds,
        "group_calls": len(group) / rounds,
    }, detail


async def main(
    rounds: int, seed: int, players_list: list[int], modes: list[str], detail: bool, think: float
) -> None:
    print(
        f"# Bot API calls per round per player ({rounds} rounds each, seed {seed}, "
        f"page players think {think} s)"
    )
    print(
        "| players | mode | views | baseline (views+answers) | calls | ratio | sends | edits "
        "| answers | group sends/round | group calls/round |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    details = []
    for players in players_list:
        for mode in modes:
            m, d = await measure(players, rounds, mode, seed, think)
            details.append((players, mode, d))
            print(
                f"| {players} | {mode} | {m['views']:.1f} | {m['baseline']:.1f} | {m['calls']:.1f} | "
                f"{m['calls'] / m['baseline']:.2f} | {m['sends']:.1f} | {m['edits']:.1f} | "
                f"{m['answers']:.1f} | {m['group_sends']:.1f} | {m['group_calls']:.1f} |"
            )
    if detail:
        print("\n# Calls per round by chat and method (all players together)")
        for players, mode, d in details:
            parts = ", ".join(f"{k} {v:.2f}" for k, v in d.items())
            print(f"- {players} players, {mode}: {parts}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1, help="deals' seed (default 1)")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--modes", nargs="*", default=["edit", "coalesce", "page"])
    parser.add_argument("--detail", action="store_true", help="calls by chat and method")
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="page mode: seconds a player looks at the page between its requests "
        "(default 0.5, longer than the 0.3 s coalescing window)",
    )
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.seed, args.players, args.modes, args.detail, args.think))
