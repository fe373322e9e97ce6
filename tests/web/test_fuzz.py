"""A fuzz pass over the page's JSON API (hypothesis): any body, any
Authorization header, any content type, on every route (and with other
methods, and on paths that are no route) — never a 500, and every refusal
is a JSON error with a catalog code and the security headers.

The server runs in a thread of its own (its own event loop) and is asked
over real HTTP, so hypothesis drives plain synchronous examples.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import catalog

from .harness import Stage, stage

ROUTES = [
    ("POST", "/api/session"),
    ("GET", "/api/hand"),
    ("POST", "/api/evaluate"),
    ("POST", "/api/suggest"),
    ("POST", "/api/lay"),
    ("POST", "/api/confirm"),
    ("POST", "/api/declare"),
    ("GET", "/api/showdown"),
]
# Asked too: the routes with other methods, and paths that are no route.
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
OTHER_PATHS = ["/api/", "/api/nosuch", "/api/hand/x", "/app/nosuch", "/app/static/nosuch.js"]


@pytest.fixture(scope="module")
def live() -> Iterator[Stage]:
    ready = threading.Event()
    box: dict[str, Any] = {}

    async def serve() -> None:
        async with stage() as st:
            box["stage"] = st
            box["stop"] = asyncio.Event()
            box["loop"] = asyncio.get_running_loop()
            ready.set()
            await box["stop"].wait()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    assert ready.wait(60), "the server did not start"
    yield box["stage"]
    box["loop"].call_soon_threadsafe(box["stop"].set)
    thread.join(30)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=12), inner, max_size=6)
    ),
    max_leaves=30,
)
lane_values = st.lists(
    st.integers(min_value=-3, max_value=20) | st.booleans() | st.text(max_size=3), max_size=7
)
drafts = st.fixed_dictionaries(
    {},
    optional={
        "head": lane_values,
        "middle": lane_values,
        "tail": lane_values,
        "extra": json_values,
    },
)
sessions = st.fixed_dictionaries(
    {},
    optional={
        "init_data": st.text(max_size=200) | json_values,
        "room": st.text(max_size=20) | json_values,
        "round": st.integers(min_value=-5, max_value=5) | json_values,
    },
)


@st.composite
def requests(draw: Any, valid_pass: str, launch: str) -> tuple[str, str, dict[str, str], bytes]:
    method, path = draw(st.sampled_from(ROUTES))
    if draw(st.integers(0, 4)) == 0:  # one in five: another method or path
        method = draw(st.sampled_from(METHODS))
        path = draw(st.sampled_from([path, *OTHER_PATHS]))
    headers: dict[str, str] = {}
    auth = draw(
        st.sampled_from(["valid", "none", "junk", "spliced"])
        if path != "/api/session"
        else st.just("none")
    )
    if auth == "valid":
        headers["Authorization"] = f"Bearer {valid_pass}"
    elif auth == "junk":
        headers["Authorization"] = "Bearer " + draw(
            st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=80)
        )
    elif auth == "spliced":
        body, mac = valid_pass.split(".")
        headers["Authorization"] = f"Bearer {body[:-2]}{draw(st.text('AbC', max_size=2))}.{mac}"
    kind = draw(st.sampled_from(["json", "json", "bytes", "text"]))
    if kind == "json":
        value = draw(sessions if path == "/api/session" else drafts | json_values)
        if path == "/api/session" and draw(st.booleans()):
            value = {**value, "init_data": launch}
        data = json.dumps(value).encode()
        headers["Content-Type"] = "application/json"
    elif kind == "bytes":
        data = draw(st.binary(max_size=300))
        headers["Content-Type"] = draw(
            st.sampled_from(["application/json", "application/octet-stream"])
        )
    else:
        data = draw(st.text(max_size=100)).encode("utf-8", "surrogatepass")
        headers["Content-Type"] = "text/plain"
    if method in ("GET", "OPTIONS"):
        data = b""
        headers.pop("Content-Type", None)
    return method, path, headers, data


def ask(
    base: str, method: str, path: str, headers: dict[str, str], data: bytes
) -> tuple[int, bytes, str, str]:
    where = urlsplit(base)
    conn = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=30)
    try:
        conn.request(method, path, body=data or None, headers=headers)
        response = conn.getresponse()
        return (
            response.status,
            response.read(),
            response.getheader("Content-Type", ""),
            response.getheader("X-Content-Type-Options", ""),
        )
    finally:
        conn.close()


def test_no_request_makes_the_api_fail(live: Stage) -> None:
    valid = live.pass_for(0, seconds=3600)
    launch = live.launch_data(0)
    codes = set(catalog("en"))
    seen: set[int] = set()

    @settings(
        max_examples=300,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
    )
    @given(request=requests(valid, launch))
    def one(request: tuple[str, str, dict[str, str], bytes]) -> None:
        live.app.buckets.levels.clear()  # the fuzz is not a flood
        method, path, headers, data = request
        status, body, content_type, nosniff = ask(live.base, method, path, headers, data)
        seen.add(status)
        assert status < 500, (method, path, headers, data, body)
        if status >= 400:
            assert content_type.startswith("application/json"), (status, body)
            error = json.loads(body)
            assert error["error"] in codes, error
            assert nosniff == "nosniff", (method, path, status)

    one()
    # The fuzz reached past the checks too, not only their refusals.
    assert 200 in seen and {400, 401, 404, 405} <= seen
