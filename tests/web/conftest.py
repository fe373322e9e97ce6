"""The browser of the page tests: Debian's chromium, driven by Playwright
(no browser download); skipped where it is not installed, except under CI.
And the page's server with a test client (served_page)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from .api import Served, served
from .harness import CHROMIUM_ARGS, need_chromium


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    path = need_chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        launched = await pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def served_page() -> AsyncIterator[Served]:
    """The page's server with the table of tests/web/harness.py, and a client."""
    async with served() as page:
        yield page
