"""The page's first load is small and its second nearly free: its files and
words come gzipped when the client takes gzip (the same bytes once
unpacked), kept for a year under URLs that name their content's version
(which change when the content does), while the page itself and every API
answer are never stored. Each answer keeps the page's security headers."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import LANGUAGES, catalog
from bot.web import server
from bot.web.server import IMMUTABLE, Asset, accepts_gzip, versioned_page

from .api import bearer, served

STATIC = Path(__file__).resolve().parents[2] / "bot" / "web" / "static"
GZIP = {"Accept-Encoding": "gzip, deflate, br"}
PLAIN = {"Accept-Encoding": "identity"}
FILES = (
    "app.js",
    "app.css",
    "host.js",
    "vendor/Sortable.min.js",
    # vendored (tools/discord_sdk/build.sh): CI builds nothing, the file must be there
    "vendor/discord-sdk.min.js",
)


def secured(response: Any) -> None:
    assert response.headers["Content-Security-Policy"] == server.CSP
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


async def raw(client: Any, path: str, headers: dict[str, str]) -> tuple[Any, bytes]:
    response = await client.get(path, headers=headers, auto_decompress=False)
    return response, await response.read()


def unpacked(response: Any, body: bytes) -> bytes:
    assert response.headers.get("Content-Encoding") == "gzip", dict(response.headers)
    assert "Accept-Encoding" in response.headers.get("Vary", "")
    return gzip.decompress(body)


def asset_urls(html: str) -> dict[str, str]:
    """The page's files as index.html names them: name -> versioned URL."""
    return {m[1]: m[0] for m in re.findall(r'"(static/([^"?]+)\?v=[0-9a-f]{16})"', html)}


async def test_the_page_s_files_come_gzipped_and_are_kept_under_their_version() -> None:
    async with served() as (_, client):
        page, body = await raw(client, "/app/", GZIP)
        assert page.status == 200
        assert page.headers["Cache-Control"] == "no-store"  # it names the versions
        secured(page)
        html = unpacked(page, body).decode()
        assert len(body) < len(html.encode())
        urls = asset_urls(html)
        assert set(urls) == set(FILES), html
        for name, url in urls.items():
            on_disk = (STATIC / "files" / name).read_bytes()
            response, body = await raw(client, f"/app/{url}", GZIP)
            assert response.status == 200, url
            assert response.headers["Cache-Control"] == IMMUTABLE
            secured(response)
            assert unpacked(response, body) == on_disk
            assert len(body) < len(on_disk) // 2  # text: gzip takes more than half away
            # A client without gzip gets the same bytes as they are.
            response, body = await raw(client, f"/app/{url}", PLAIN)
            assert "Content-Encoding" not in response.headers
            assert body == on_disk
            assert response.headers["Cache-Control"] == IMMUTABLE
            # Not under its version (no version, another one): not kept.
            for other in (f"/app/static/{name}", f"/app/static/{name}?v=0123456789abcdef"):
                response, body = await raw(client, other, GZIP)
                assert response.status == 200
                assert response.headers["Cache-Control"] == "no-store", other
                assert unpacked(response, body) == on_disk
                secured(response)
        missing = await client.get("/app/static/nothing.js")
        assert missing.status == 404
        assert (await client.get("/app/static/../index.html")).status == 404


async def test_the_words_are_kept_under_their_version_too() -> None:
    async with served() as (_, client):
        html = await (await client.get("/app/")).text()
        found = re.search(r'<html lang="zh-Hans" data-strings="([0-9a-f]{16})">', html)
        assert found, html
        for language in LANGUAGES:
            path = f"/app/strings/{language}.json?v={found[1]}"
            response, body = await raw(client, path, GZIP)
            assert response.headers["Cache-Control"] == IMMUTABLE
            secured(response)
            words = json.loads(unpacked(response, body))
            assert words == {
                k: v
                for k, v in catalog(language).items()
                if k.startswith(("web.", "cat.", "special.", "lane.", "moment."))
            }
            response = await client.get(f"/app/strings/{language}.json")
            assert response.headers["Cache-Control"] == "no-store"
            assert await response.json() == words


@pytest.mark.parametrize(
    ("asked", "language"),
    [(None, "zh-Hans"), ("en-US,en;q=0.9", "en"), ("zh-TW", "zh-Hant"), ("fr-FR", "zh-Hans")],
)
async def test_the_page_speaks_the_language_the_browser_asks_for(
    asked: str | None, language: str
) -> None:
    """The server reads Accept-Language (the page has no copy of that
    rule): index.html names it on <html lang>, the words the page asks for
    before its session answers."""
    async with served() as (_, client):
        response = await client.get("/app/", headers={"Accept-Language": asked} if asked else {})
        html = await response.text()
        assert re.search(rf'<html lang="{language}" data-strings="[0-9a-f]{{16}}">', html), html
        assert "Accept-Language" in response.headers["Vary"]
        assert "normalizeLanguage" not in (await (await client.get("/app/static/app.js")).text())


async def test_long_api_answers_are_gzipped_and_none_is_stored() -> None:
    async with served() as (st, client):
        token = bearer(st.pass_for(0))
        # The hand with the solver's suggestions: over the threshold.
        plain_answer = await client.post("/api/suggest", headers={**token, **PLAIN})
        plain = await plain_answer.read()
        assert plain_answer.status == 200
        assert "Content-Encoding" not in plain_answer.headers
        assert len(plain) > server.COMPRESS_ABOVE
        response = await client.post(
            "/api/suggest", headers={**token, **GZIP}, auto_decompress=False
        )
        body = await response.read()
        assert response.status == 200
        assert response.headers["Cache-Control"] == "no-store"
        secured(response)
        assert unpacked(response, body) == plain
        # A small answer (a refusal) is sent as it is.
        response, body = await raw(client, "/api/hand", GZIP)
        assert response.status == 401
        assert "Content-Encoding" not in response.headers
        assert json.loads(body)["error"] == "web.err.pass"
        assert response.headers["Cache-Control"] == "no-store"


async def test_a_file_s_version_changes_with_its_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    monkeypatch.setattr(server, "STATIC", copy)
    async with served() as (_, client):
        before = asset_urls(await (await client.get("/app/")).text())
    css = copy / "files" / "app.css"
    css.write_bytes(css.read_bytes() + b"\n.x{}\n")
    async with served() as (_, client):
        after = asset_urls(await (await client.get("/app/")).text())
        assert after["app.css"] != before["app.css"]
        assert {k: v for k, v in after.items() if k != "app.css"} == {
            k: v for k, v in before.items() if k != "app.css"
        }
        # The old URL is answered with the new content, and not kept.
        old = await client.get(f"/app/{before['app.css']}")
        assert old.headers["Cache-Control"] == "no-store"
        assert await old.read() == css.read_bytes()
        new = await client.get(f"/app/{after['app.css']}")
        assert new.headers["Cache-Control"] == IMMUTABLE


def test_a_page_naming_a_file_that_is_not_there_stops_the_start() -> None:
    assets = {"app.js": Asset.of(b"x", "text/javascript")}
    page = '<html data-strings=""><script src="static/app.js"></script>'
    assert versioned_page(page, assets, "v1") == (
        f'<html data-strings="v1"><script src="static/app.js?v={assets["app.js"].version}"></script>'
    )
    with pytest.raises(ValueError, match="static/gone.js"):
        versioned_page('<html data-strings=""><script src="static/gone.js">', assets, "v1")
    with pytest.raises(ValueError, match="data-strings"):
        versioned_page('<html><script src="static/app.js">', assets, "v1")


@pytest.mark.parametrize(
    ("header", "takes"),
    [
        ("gzip", True),
        ("gzip, deflate, br, zstd", True),
        ("GZIP;q=0.5", True),
        ("br;q=1.0, gzip;q=0.8", True),
        ("*", True),
        ("", False),
        ("identity", False),
        ("deflate, br", False),
        ("gzip;q=0", False),
        ("gzip;q=0.000", False),
        ("gzip;q=0, *", False),
        ("*;q=0", False),
        ("gzip;q=nonsense", False),
        ("x-gzip", False),
    ],
)
def test_accept_encoding_is_read_as_http_says(header: str, takes: bool) -> None:
    assert accepts_gzip(header) is takes


WORDS_IN_PARALLEL = """
() => {
  const entries = performance.getEntriesByType("resource");
  const session = entries.find((e) => e.name.includes("/api/session"));
  const words = entries.filter((e) => e.name.includes("/strings/"));
  return {
    words: words.map((e) => e.name.split("/strings/")[1].split(".json")[0]),
    versioned: words.every((e) => /[.]json[?]v=[0-9a-f]{16}$/.test(e.name)),
    first_asked: words.length ? words[0].startTime : null,
    session_answered: session ? session.responseEnd : null,
  };
}
"""


@pytest.mark.parametrize(
    ("language_code", "locale", "asked"),
    [("zh-hans", "zh-CN", ["zh-Hans"]), ("en", "en-US", ["en", "zh-Hans"])],
)
async def test_the_page_asks_for_its_words_with_the_session_and_again_after_a_wrong_guess(
    browser: Any, language_code: str, locale: str, asked: list[str]
) -> None:
    """A 简体中文 room, opened from a Telegram that speaks the room's
    language, then English: the words are asked for before the session has
    answered, in the Telegram's language; a wrong guess asks for the room's
    after, and the page speaks the room's language either way."""
    from playwright.async_api import expect

    from bot.i18n import t

    from .harness import open_url, stage, stub_config

    async with stage(language="zh-Hans") as st:
        config = stub_config(st)
        config["initDataUnsafe"]["user"]["language_code"] = language_code
        page = await open_url(browser, st.page_url(), config, locale=locale)
        page.set_default_timeout(5000)
        await expect(page.locator('[data-lane="hand"] [data-card]')).to_have_count(13)
        await expect(page.locator('[data-word="lane.head"]')).to_have_text(
            t("zh-Hans", "lane.head")
        )
        got = await page.evaluate(WORDS_IN_PARALLEL)
        assert got["words"] == asked
        assert got["versioned"]
        assert got["first_asked"] < got["session_answered"]
        assert await page.evaluate("document.documentElement.lang") == "zh-Hans"
        assert page.problems == []
        await page.context.close()
