"""The settlement's length as Telegram counts it (UTF-16 code units; a
caption is cut at 1,024), with pictures (the photo's caption) and without
(a text message, 4,096), for 3 and 5 players, after a seeded round played
through the real TableManager; and the deal's caption.

    python bench/caption_bench.py

Run against another checkout (PYTHONPATH=that checkout) to compare.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.platforms.telegram.render import telegram_length  # noqa: E402
from bot.table.actions import Verb  # noqa: E402
from bot.table.clock import FakeClock  # noqa: E402
from bot.views.model import ViewKind  # noqa: E402
from storage.memory import MemoryRepository  # noqa: E402
from tests.table.helpers import make_manager, ok, open_table, play_round  # noqa: E402


async def settlement_length(players: int, lang: str, pictures: bool) -> int:
    repo = MemoryRepository()
    await repo.init()
    clock = FakeClock(start=1_700_000_000)
    mgr, sink = make_manager(repo, clock, rng=random.Random(5), pictures=pictures)
    options = [f"language={lang}"] + (["suit=h"] if players == 5 else [])
    rid, actors = await open_table(mgr, players, options=options)
    await play_round(mgr, clock, rid, actors)
    settle = [v for v in sink.views if v.kind is ViewKind.SETTLEMENT][-1]
    return telegram_length(settle.text)


async def deal_caption(players: int, lang: str) -> int:
    repo = MemoryRepository()
    await repo.init()
    mgr, _ = make_manager(repo, FakeClock(start=1_700_000_000), rng=random.Random(5))
    options = [f"language={lang}"] + (["suit=h"] if players == 5 else [])
    rid, actors = await open_table(mgr, players, options=options)
    out = await ok(mgr, actors[0], Verb.START)
    table = next(v for v in out.views if v.kind is ViewKind.TABLE)
    return telegram_length(table.text)


async def main() -> None:
    print("players language  settlement: picture caption | text only   deal caption")
    for players in (3, 5):
        for lang in ("zh-Hans", "en"):
            caption = await settlement_length(players, lang, True)
            text = await settlement_length(players, lang, False)
            deal = await deal_caption(players, lang)
            print(f"{players:>7} {lang:<8}  {caption:>26} | {text:>9}   {deal:>12}")


if __name__ == "__main__":
    asyncio.run(main())
