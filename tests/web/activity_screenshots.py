"""Screenshots of the arranging page as a Discord Activity, for docs/discord.md.

    python -m tests.web.activity_screenshots docs/webapp

Deals chosen hands on a real table in a Discord channel, serves the page,
and photographs it in Debian's chromium (headless) inside a host page that
plays Discord's client (tests/web/discord_client.py), logged in through a
local fake of Discord's API: half-arranged at a phone's size (touch) in
简体中文, and at a desktop's in English. Writes two PNGs into the folder given.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from .discord_client import open_activity
from .discord_fake import CHANNEL, fake_discord
from .harness import CHROMIUM_ARGS, HAND, OTHER, chromium, stage
from .screenshots import place, settle

HALF = {"head": ["8h", "8d", "2c"], "tail": ["As", "Ks", "Qs"]}
FONTS = Path(__file__).resolve().parents[2] / "bot" / "pictures" / "fonts"


def cjk_fonts(folder: Path) -> None:
    """The card pictures' Noto Sans SC (a subset holding the catalogs' words)
    for chromium too, where the machine has no CJK font: fontconfig reads
    this file first, then the system's."""
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        f'<dir>{FONTS}</dir><include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
        "</fontconfig>"
    )
    os.environ["FONTCONFIG_FILE"] = str(conf)


async def one(
    browser: Any, out: Path, *, language: str, locale: str, mobile: bool, size: tuple[int, int]
) -> Path:
    async with (
        fake_discord() as fake,
        stage(
            (HAND, OTHER),
            platform="discord",
            chat=CHANNEL,
            activity=fake.config(),
            language=language,
        ) as st,
    ):
        me = st.players[0].user_id
        instance = fake.instance([me, st.players[1].user_id])
        page, frame = await open_activity(
            browser,
            st.base,
            code=fake.code_for(me),
            user_id=me,
            instance_id=instance,
            viewport=size,
            mobile=mobile,
            locale=locale,
        )
        await frame.locator('[data-lane="hand"] [data-card]').first.wait_for()
        await place(frame, HALF)
        await settle(frame)
        made = out / f"activity-{'phone' if mobile else 'desktop'}.png"
        await page.screenshot(path=str(made))
        await page.context.close()
        return made


async def shoot(out: Path) -> list[Path]:
    path = chromium()
    if path is None:
        raise SystemExit("chromium is not installed (Debian's package chromium)")
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            return [
                await one(
                    browser, out, language="zh-Hans", locale="zh-CN", mobile=True, size=(390, 844)
                ),
                await one(
                    browser, out, language="en", locale="en-US", mobile=False, size=(1280, 800)
                ),
            ]
        finally:
            await browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.web.activity_screenshots", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("folder", type=Path, help="where the PNGs go (docs/webapp)")
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as fonts:
        cjk_fonts(Path(fonts))
        made_all = asyncio.run(shoot(args.folder))
    for made in made_all:
        print(made)
    return 0


if __name__ == "__main__":
    sys.exit(main())
