"""How players reach the page from the chats: Telegram's private hand gets
a Mini App button (HTTPS only, as Telegram requires) and the group a t.me
link where the app has a short name; Discord's hand gets a link whose pass
opens exactly that player's seat for that round; the group-link pointer
(``startapp``) is read from Telegram's signed launch data."""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, urlparse

from bot.core.room import Room
from bot.platforms.discord.render import MAX_PER_ROW, MAX_ROWS, make_components, with_page
from bot.platforms.telegram.render import render_markup
from bot.views.render_hand import hand_view
from bot.views.render_table import table_view
from bot.web import passes
from bot.web.links import GRACE_SECONDS, PageLinks, room_and_round
from tests.telegram.strict_schema import Request, check_request
from tests.web.harness import SECRET, stage, telegram_launch_data

LINKS = PageLinks("https://thirteen.example", SECRET, "arrange")


def _buttons(markup) -> list[dict]:  # type: ignore[no-untyped-def]
    return [b for row in markup.to_dict()["inline_keyboard"] for b in row]


async def test_telegram_hand_opens_the_mini_app_for_its_room_and_round() -> None:
    async with stage(serve=False) as st:
        state = await st.state()
        view = hand_view(Room.from_json(state), st.players[0].key)
        (page,) = [b for b in _buttons(render_markup(view, "bot", LINKS)) if "web_app" in b]
        query = parse_qs(urlparse(page["web_app"]["url"]).query)
        assert query == {"room": [st.room], "round": [str(st.round_no)]}
        # A request Telegram takes: web_app buttons only in a private chat.
        markup = json.dumps(render_markup(view, "bot", LINKS).to_dict())
        fields = {"chat_id": st.players[0].user_id, "text": "hand", "reply_markup": markup}
        assert check_request(Request("sendMessage", fields, {}))
        for off in (None, PageLinks("http://127.0.0.1:8080", SECRET)):  # off, or not HTTPS
            assert not any("web_app" in b for b in _buttons(render_markup(view, "bot", off)))


async def test_telegram_group_links_to_the_named_mini_app_only() -> None:
    async with stage(serve=False) as st:
        view = table_view(Room.from_json(await st.state()), st.clock.now())
        links = [b.get("url", "") for b in _buttons(render_markup(view, "thirteen_bot", LINKS))]
        expected = f"https://t.me/thirteen_bot/arrange?startapp={st.room}-{st.round_no}"
        assert expected in links
        unnamed = PageLinks("https://thirteen.example", SECRET)
        shown = _buttons(render_markup(view, "thirteen_bot", unnamed))
        assert not any("t.me/thirteen_bot/" in b.get("url", "") for b in shown)
        assert not any("web_app" in b for b in shown)  # never a web_app button in a group


async def test_discord_hand_link_carries_that_player_s_pass() -> None:
    async with stage(platform="discord", serve=False) as st:
        state = await st.state()
        view = with_page(hand_view(Room.from_json(state), st.players[1].key), LINKS)
        urls = [b.url for row in view.buttons for b in row if b.url]
        (url,) = urls
        assert url.startswith("https://thirteen.example/app/#pass=")
        grant = passes.check(url.split("#pass=", 1)[1], SECRET, time.time())
        assert grant == passes.Pass(
            "discord",
            st.players[1].user_id,
            st.room,
            st.round_no,
            int(state["round"]["deadline"]) + GRACE_SECONDS,
        )
        assert view == with_page(
            hand_view(Room.from_json(state), st.players[1].key), LINKS
        )  # stable per round
        assert len(view.buttons) <= MAX_ROWS and all(len(r) <= MAX_PER_ROW for r in view.buttons)
        assert make_components(view) is not None
        off = with_page(hand_view(Room.from_json(state), st.players[1].key), None)
        assert not any(b.web_app or b.url for row in off.buttons for b in row)


async def test_the_group_link_s_pointer_comes_from_signed_launch_data() -> None:
    assert room_and_round("abc12-3") == ("abc12", 3)
    assert room_and_round("abc") is None and room_and_round(None) is None
    async with stage() as st:
        import aiohttp

        raw = telegram_launch_data(
            int(st.players[0].user_id),
            "P0",
            now=st.clock.now(),
            start_param=f"{st.room}-{st.round_no}",
        )
        async with aiohttp.ClientSession() as http:
            body = {"init_data": raw, "room": "", "round": 0}
            async with http.post(f"{st.base}/api/session", json=body) as answer:
                assert answer.status == 200, await answer.text()
                out = await answer.json()
        assert out["hand"]["room"] == st.room and out["hand"]["round"] == st.round_no
