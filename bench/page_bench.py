"""The arranging page: its first load in headless Chromium, and its API's
latency with 1,000 open rooms.

    python -m bench.page_bench load [--trials 10]          (= python bench/page_bench.py load)
    python -m bench.page_bench api [--rooms 1000] [--players 600] [--concurrency 4]
    python -m bench.page_bench                              (both; = thirteen bench page_bench)

Both stand on the real server: ``bot.web.server.WebApp`` over a real
``TableManager`` (real clock, real deals) and a SQLite file (``api`` then
runs again on PostgreSQL at ``--pg URL``, by default the tests' local
server; skipped when none answers), served by aiohttp in a process of its own
(``serve``, started by the command), so the load generator's CPU is not the
server's. The server also answers four routes of the benchmark's own:
``/bench/ping`` (a JSON answer through the page's middleware: the HTTP
baseline), ``/bench/blank`` (a trivial HTML page: the browser baseline),
``/bench/cpu`` (the server process's CPU seconds) and
``/bench/telegram-web-app.js`` (the tests' stand-in for Telegram's script,
kept by the browser for an hour; the page's ``<script>`` for telegram.org
points there, the only change to what the page's server sends). Nothing is
answered by Playwright: its request routing would turn the browser's HTTP
cache off, and the repeat visit is there to show what that cache saves.

``load``: each trial opens the page in a fresh browser context (empty
cache) at a phone's size with touch, as Telegram opens a Mini App: signed
launch data handed to the page by the tests' stand-in for
``telegram-web-app.js`` (tests/web), ``?room=…&round=…`` in the address
(Chromium sends ``Accept-Encoding: gzip, deflate, br, zstd``; the page's
server answers gzip).
The marker "the cards can be dragged" is the first DOM mutation after which
the hand's row (``[data-lane="hand"]``) holds 13 ``[data-card]`` elements
and SortableJS is attached to it (``Sortable.get(row)``); the time is
``performance.now()`` there, i.e. from the navigation's start. Bytes are the
Resource Timing entries up to the marker (``decodedBodySize``: the body
unpacked; ``encodedBodySize``: as sent, compressed or not;
``transferSize``: with the headers, 0 for what the browser's cache
answered; the stand-in for telegram.org's script is not counted). Baseline,
in the same browser, alternating with the page: ``/bench/blank``'s
DOMContentLoaded. The repeat visit navigates the same context (and so the
same HTTP cache) to the page again. ``--network mobile`` has Chromium
throttle every context as a slow mobile network (``MOBILE``); by default
the loopback is as fast as it is.

``api``: opens ``--rooms`` rooms of 4 seated players through the manager's
actions (NEW, 3 JOIN, START: real deals), then a load generator (this
process, aiohttp client, ``--concurrency`` connections, closed loop)
plays ``--players`` seats drawn at random from all of them as the page
does: ``GET /api/hand``, ``POST /api/evaluate`` after each of the 13 cards
placed, ``POST /api/suggest`` for a share of the players
(``--suggest``), ``POST /api/confirm`` once (LAY + CONFIRM). Baselines in the
same run: ``GET /bench/ping`` over the same connections, and (inside the
server process, before the load) the Desk's hand and evaluate called
directly, without HTTP.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import math
import os
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from aiohttp import ClientSession, TCPConnector, web  # noqa: E402
from aiohttp.web import ContentCoding  # noqa: E402

from bot.rules.cards import parse_card  # noqa: E402
from bot.rules.options import Rules, make_rules  # noqa: E402
from bot.web import passes  # noqa: E402
from tests.stored import cached_json  # noqa: E402
from tests.table.helpers import lane_indexes, ok, open_table, quick_split  # noqa: E402

PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
TOKEN = "123456:BENCH-page-token"
SECRET = b"bench-page-secret"
PHONE = {"width": 390, "height": 844}
# --network mobile: a phone on a slow mobile network, Chromium's own
# throttling (DevTools' Network.emulateNetworkConditions): each request's
# answer 150 ms later, 1.6 Mbit/s down, 750 kbit/s up.
MOBILE = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
BLANK = "<!doctype html><html><head><meta charset=utf-8><title>b</title></head><body><p>ok</p></body></html>"
TELEGRAM_JS = b"https://telegram.org/js/telegram-web-app.js"
LOCAL_TELEGRAM_JS = b"/bench/telegram-web-app.js"

# Set before the page's scripts run: the time the cards can be dragged.
MARKER = """
(function () {
  var bench = (window.__bench = { ready: 0 });
  function check() {
    if (bench.ready) return;
    var row = document.querySelector('[data-lane="hand"]');
    if (!row || !window.Sortable || !window.Sortable.get(row)) return;
    if (row.querySelectorAll("[data-card]").length !== 13) return;
    bench.ready = performance.now();
    observer.disconnect();
  }
  var observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();
"""
COLLECT = """
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  return {
    ready: window.__bench ? window.__bench.ready : 0,
    dcl: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    nav: {
      url: nav.name, transfer: nav.transferSize, body: nav.encodedBodySize,
      decoded: nav.decodedBodySize,
    },
    res: performance.getEntriesByType("resource").map((e) => ({
      url: e.name, transfer: e.transferSize, body: e.encodedBodySize,
      decoded: e.decodedBodySize, start: e.startTime, end: e.responseEnd,
    })),
  };
}
"""


# ---------------------------------------------------------------- the server process
@web.middleware
async def local_telegram(request: web.Request, handler: Any) -> web.StreamResponse:
    """The page as its server sends it, but for the address of Telegram's
    script: the benchmark's own route (the same server, so the page's CSP,
    ``script-src 'self'``, allows it). Inside the page's middleware, so the
    page's headers are set on it as on the page."""
    response = await handler(request)
    if request.path != "/app/" or response.status != 200:
        return response
    packed = response.headers.get("Content-Encoding") == "gzip"
    if isinstance(response, web.FileResponse):  # the server before it held its files in memory
        html = Path(response._path).read_bytes()
    else:
        assert isinstance(response, web.Response) and isinstance(response.body, bytes)
        html = gzip.decompress(response.body) if packed else response.body
    assert TELEGRAM_JS in html
    page = web.Response(
        body=html.replace(TELEGRAM_JS, LOCAL_TELEGRAM_JS),
        headers={
            k: v for k, v in response.headers.items() if k.lower() in ("cache-control", "vary")
        },
        content_type="text/html",
        charset="utf-8",
    )
    if packed:
        page.enable_compression(ContentCoding.gzip)
    return page


def prepare_solver(rules: Rules) -> str:
    """The solver's pools for ``rules`` built (or read from disk) and one
    suggestion made, so no request pays for them; what was prepared."""
    from bot.solver import config, prepare
    from bot.table import solving

    if os.environ.get("THIRTEEN_SOLVER_POOL_HANDS"):  # the tests' small pools
        config.configure(pool_hands=int(os.environ["THIRTEEN_SOLVER_POOL_HANDS"]))
    if os.environ.get("THIRTEEN_SOLVER_CACHE"):
        config.configure(cache_dir=os.environ["THIRTEEN_SOLVER_CACHE"])
    t0 = time.perf_counter()
    quick = prepare(rules, quick=True)
    hand = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c", "2s"]
    solving.suggestions([parse_card(x) for x in hand], rules, 4, opponents=[None] * 3)
    # The table's own warm-up (at START) would now build the full pools in a
    # background thread: minutes of CPU inside the measurement. Mark it done.
    solving._warmed.add(solving._warm_key(rules))
    what = "a quick pool (the full one is not built on this machine)" if quick else "full pools"
    return f"{what}, ready in {time.perf_counter() - t0:.1f} s"


async def serve(args: argparse.Namespace) -> None:
    """Open the rooms, serve the page, print one JSON line (port, seats,
    the in-process baseline), serve until stdin closes."""
    from bot.table.actions import Actor, Verb
    from bot.table.clock import RealClock
    from bot.table.manager import TableManager
    from bot.web.desk import Desk, Draft
    from bot.web.server import WebApp, WebConfig
    from storage.sql import SqlRepository

    began = time.perf_counter()
    rules = make_rules("classic", 4)
    # The solver, before anything is measured (a player whose quick splits
    # all foul takes a suggestion, whatever --suggest says; the first load
    # asks for none).
    solver = "not prepared" if args.no_solver else prepare_solver(rules)

    repo = SqlRepository(args.db, pool_size=8)
    await repo.init()
    manager = TableManager(
        repo,
        clock=RealClock(),
        arrange_seconds=900,
        reminder_seconds=0,
        showdown_step_seconds=0.5,
        default_language="zh-Hans",
    )
    await manager.start()
    tag = secrets.token_hex(4)  # fresh chats and users: a shared database may hold old rooms
    first_user = random.randrange(10**9, 2 * 10**9, 10**5)
    seats: list[tuple[str, int, str]] = []
    gate = asyncio.Semaphore(16)

    async def room(n: int) -> None:
        async with gate:
            chat = f"page-{tag}-{n}"
            people = [Actor("telegram", str(first_user + 4 * n + k), f"P{k}") for k in range(4)]
            room_id, _ = await open_table(manager, 4, actors=people, chat_id=chat)
            await ok(manager, people[0], Verb.START, chat_id=chat)
            state = cached_json(manager, room_id)
            assert state is not None and state["phase"] == "arranging"
            seats.extend((room_id, state["round_no"], p.user_id) for p in people)

    await asyncio.gather(*(room(n) for n in range(args.rooms)))
    opened = time.perf_counter() - began

    # Baseline without HTTP: the Desk's reads, called directly, one at a time.
    desk = Desk(manager)
    sample = random.Random(1).sample(seats, min(200, len(seats)))
    direct: dict[str, list[float]] = {"hand": [], "evaluate": []}
    draft = Draft(tuple(range(3)), tuple(range(3, 8)), tuple(range(8, 13)))
    cpu0 = time.process_time()
    for room_id, round_no, user in sample:
        grant = passes.Pass("telegram", user, room_id, round_no, int(time.time()) + 600)
        t0 = time.perf_counter()
        await desk.hand(grant)
        direct["hand"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await desk.evaluate(grant, draft)
        direct["evaluate"].append(time.perf_counter() - t0)
    direct_cpu = (time.process_time() - cpu0) / (2 * len(sample))

    page = WebApp(Desk(manager), WebConfig(TOKEN, SECRET))

    async def ping(request: web.Request) -> web.StreamResponse:
        return web.json_response({"ok": True})

    async def blank(request: web.Request) -> web.StreamResponse:
        return web.Response(text=BLANK, content_type="text/html")

    async def cpu(request: web.Request) -> web.StreamResponse:
        return web.json_response({"cpu": time.process_time()})

    from tests.web.harness import STUB, serve_local

    stub = STUB.read_bytes()

    async def telegram_js(request: web.Request) -> web.StreamResponse:
        return web.Response(
            body=stub,
            content_type="application/javascript",
            headers={"Cache-Control": "public, max-age=3600"},
        )

    page.application.router.add_get("/bench/ping", ping)
    page.application.router.add_get("/bench/blank", blank)
    page.application.router.add_get("/bench/cpu", cpu)
    page.application.router.add_get(LOCAL_TELEGRAM_JS.decode(), telegram_js)
    page.application.middlewares.append(local_telegram)
    runner, port = await serve_local(page.application)
    ready = {
        "port": port,
        "seats": seats,
        "setup_s": round(opened, 1),
        "solver": solver,
        "direct": {k: summary(v) for k, v in direct.items()},
        "direct_cpu_ms": direct_cpu * 1000,
    }
    print(json.dumps(ready), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until EOF
    await runner.cleanup()
    await manager.stop()
    await repo.close()


class Server:
    """The server process, from the load generator's side."""

    def __init__(self, db: str, rooms: int, *, solver: bool = True) -> None:
        command = [sys.executable, "-m", "bench.page_bench", "serve", "--db", db]
        command += ["--rooms", str(rooms)] + ([] if solver else ["--no-solver"])
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the server process stopped ({self.process.wait()})")
        self.info: dict[str, Any] = json.loads(line)
        self.base = f"http://127.0.0.1:{self.info['port']}"

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ---------------------------------------------------------------- numbers
def quantile(xs: Sequence[float], q: float) -> float:
    """Nearest-rank quantile (p90 of 10 values: the 9th smallest)."""
    s = sorted(xs)
    return s[min(len(s), max(1, math.ceil(q * len(s) - 1e-9))) - 1]


def summary(xs: Sequence[float]) -> dict[str, float]:
    return {
        "n": len(xs),
        "p50": quantile(xs, 0.50) * 1000,
        "p90": quantile(xs, 0.90) * 1000,
        "p99": quantile(xs, 0.99) * 1000,
        "max": max(xs) * 1000,
    }


def machine() -> str:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"nproc {os.cpu_count()}, {model}, python {sys.version.split()[0]}, load average {load}"


# ---------------------------------------------------------------- the API under load
def cheap_split(cards: Sequence[str], rules: Rules) -> list[list[int]] | None:
    """A legal split as a quick player makes one (grouped, by suit, by rank:
    the first that does not foul), as card indexes; None when all foul."""
    arrangement = quick_split(cards, rules)
    return None if arrangement is None else lane_indexes(cards, arrangement)


class Load:
    def __init__(self, base: str) -> None:
        self.base = base
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: Counter[str] = Counter()

    async def call(
        self,
        session: ClientSession,
        name: str,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = None,
    ) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        t0 = time.perf_counter()
        async with session.request(method, self.base + path, json=body, headers=headers) as r:
            data = await r.read()
            status = r.status
        self.latency[name].append(time.perf_counter() - t0)
        self.status[f"{name} {status}"] += 1
        return json.loads(data) if status == 200 else None

    async def player(
        self, session: ClientSession, seat: Sequence[Any], suggest: bool, rules: Rules
    ) -> None:
        room_id, round_no, user = seat
        grant = passes.Pass("telegram", user, room_id, round_no, int(time.time()) + 3600)
        token = passes.issue(grant, SECRET)
        hand = await self.call(session, "GET /api/hand", "GET", "/api/hand", token)
        if hand is None:
            return
        split = cheap_split(hand["cards"], rules)
        if suggest or split is None:
            shown = await self.call(session, "POST /api/suggest", "POST", "/api/suggest", token)
            if split is None and shown:
                best = shown["suggestions"][0]
                split = [list(best[k]) for k in ("head", "middle", "tail")]
        if split is None:
            return
        order = split[0] + split[1] + split[2]
        for k in range(1, 14):  # the page asks after each card placed
            draft = {"head": order[: min(k, 3)], "middle": order[3 : min(k, 8)], "tail": order[8:k]}
            await self.call(session, "POST /api/evaluate", "POST", "/api/evaluate", token, draft)
        draft = dict(zip(("head", "middle", "tail"), split, strict=True))
        await self.call(session, "POST /api/confirm", "POST", "/api/confirm", token, draft)

    async def cpu(self, session: ClientSession) -> float:
        async with session.get(self.base + "/bench/cpu") as r:
            return float((await r.json())["cpu"])


async def api_run(label: str, db: str, args: argparse.Namespace) -> dict[str, Any]:
    server = Server(db, args.rooms)
    try:
        info = server.info
        seats = [tuple(s) for s in info["seats"]]
        rng = random.Random(args.seed)
        chosen = rng.sample(seats, min(args.players, len(seats)))
        asks = {i for i in range(len(chosen)) if rng.random() < args.suggest}
        rules = make_rules("classic", 4)
        load = Load(server.base)
        async with ClientSession(connector=TCPConnector(limit=args.concurrency)) as session:
            # Baseline: the same connections, a trivial JSON answer; half of
            # it before the page's requests, half after.
            ping_wall = ping_cpu = 0.0

            async def pings(n: int) -> None:
                nonlocal ping_wall, ping_cpu
                left = iter(range(n))

                async def pinger() -> None:
                    for _ in left:
                        await load.call(session, "GET /bench/ping", "GET", "/bench/ping")

                cpu0 = await load.cpu(session)
                t0 = time.perf_counter()
                await asyncio.gather(*(pinger() for _ in range(args.concurrency)))
                ping_wall += time.perf_counter() - t0
                ping_cpu += await load.cpu(session) - cpu0

            todo = iter(enumerate(chosen))

            async def worker() -> None:
                for i, seat in todo:
                    await load.player(session, seat, i in asks, rules)

            await pings(args.pings // 2)
            cpu0 = await load.cpu(session)
            t0 = time.perf_counter()
            await asyncio.gather(*(worker() for _ in range(args.concurrency)))
            wall = time.perf_counter() - t0
            cpu1 = await load.cpu(session)
            await pings(args.pings - args.pings // 2)
    finally:
        server.stop()
    api = {k: v for k, v in load.latency.items() if k.startswith(("GET /api", "POST /api"))}
    requests = sum(len(v) for v in api.values())
    return {
        "label": label,
        "info": {k: v for k, v in info.items() if k != "seats"},
        "ping": summary(load.latency["GET /bench/ping"]),
        "ping_rps": args.pings / ping_wall,
        "ping_cpu_ms": ping_cpu / args.pings * 1000,
        "api": {k: summary(v) for k, v in sorted(api.items())},
        "all": summary([x for v in api.values() for x in v]),
        "rps": requests / wall,
        "wall": wall,
        "players": len(chosen),
        "cpu_ms": (cpu1 - cpu0) / requests * 1000,
        "status": dict(sorted(load.status.items())),
    }


def print_api(r: dict[str, Any], args: argparse.Namespace) -> None:
    info, ping = r["info"], r["ping"]
    print(f"\n## {r['label']}: {args.rooms} rooms open, {r['players']} players played")
    print(f"# setup {info['setup_s']} s; solver: {info['solver']}")
    print(
        f"# closed loop, {args.concurrency} connections; API {r['rps']:.0f} requests/s over "
        f"{r['wall']:.1f} s, server CPU {r['cpu_ms']:.2f} ms/request "
        f"(ping: {r['ping_rps']:.0f}/s, {r['ping_cpu_ms']:.2f} ms/request)"
    )
    print("| request | n | p50 ms | p99 ms | max ms | p50 / ping | p99 / ping |")
    print("|---|---|---|---|---|---|---|")
    rows = [("GET /bench/ping (baseline)", ping), *r["api"].items(), ("all API", r["all"])]
    for name, s in rows:
        print(
            f"| {name} | {s['n']} | {s['p50']:.2f} | {s['p99']:.2f} | {s['max']:.1f} | "
            f"{s['p50'] / ping['p50']:.1f} | {s['p99'] / ping['p99']:.1f} |"
        )
    d = info["direct"]
    print(
        f"# without HTTP, in the server process, one at a time ({d['hand']['n']} seats): "
        f"Desk.hand p50 {d['hand']['p50']:.2f} / p99 {d['hand']['p99']:.2f} ms, "
        f"Desk.evaluate p50 {d['evaluate']['p50']:.2f} / p99 {d['evaluate']['p99']:.2f} ms, "
        f"CPU {info['direct_cpu_ms']:.2f} ms/call"
    )
    bad = {k: v for k, v in r["status"].items() if not k.endswith(" 200")}
    print(f"# answers not 200: {bad or 'none'}")


async def api_main(args: argparse.Namespace) -> None:
    print(f"# machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{os.path.join(tmp, 'page.db')}"
        print_api(await api_run("SQLite (file)", url, args), args)
    if args.pg and await pg_reachable(args.pg):
        print_api(await api_run("PostgreSQL", args.pg, args), args)
    print(f"# load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


async def pg_reachable(url: str) -> bool:
    try:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(
            url.replace("postgresql+psycopg://", "postgresql://"), connect_timeout=3
        )
        await conn.close()
        return True
    except Exception as e:  # no server here: say so and skip
        print(f"# PostgreSQL not reachable at {url}: {type(e).__name__}".splitlines()[0])
        return False


# ---------------------------------------------------------------- the first load
def launch_data(user: str) -> str:
    from tests.web.harness import telegram_launch_data

    return telegram_launch_data(
        int(user), "P", now=time.time(), token=TOKEN, language_code="zh-hans"
    )


def kind_of(url: str) -> str:
    path = url.split("?", 1)[0].split("#", 1)[0]
    if path.endswith("telegram-web-app.js"):
        return "telegram stub"
    for kind, ends in (
        ("js", (".js",)),
        ("css", (".css",)),
        ("json", (".json",)),
        ("fonts", (".woff", ".woff2", ".ttf", ".otf")),
        ("images", (".png", ".svg", ".jpg", ".webp", ".gif")),
    ):
        if path.endswith(ends):
            return kind
    return "json" if "/api/" in path else "other"


async def open_once(
    browser: Any, url: str, stub: str, *, blank: bool, again: bool, network: str = "local"
) -> list[dict[str, Any]]:
    """One fresh context: the first load (and with ``again`` a repeat visit,
    with the context's HTTP cache). No request is routed by Playwright (that
    would turn the cache off): the server answers them all."""
    context = await browser.new_context(
        viewport=PHONE, device_scale_factor=3, is_mobile=True, has_touch=True, locale="zh-CN"
    )
    await context.add_init_script(f"window.__TG_STUB__ = {stub};\n{MARKER}")
    page = await context.new_page()
    if network == "mobile":
        cdp = await context.new_cdp_session(page)
        await cdp.send("Network.enable")
        await cdp.send("Network.emulateNetworkConditions", MOBILE)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    out = []
    for _ in range(2 if again else 1):
        await page.goto(url, wait_until="commit")
        # Polled (the page's CSP forbids Playwright's wait_for_function); the
        # times are taken in the page, so the polling's pace does not matter.
        for _ in range(600):
            got = await page.evaluate(COLLECT)
            if (got["dcl"] if blank else got["ready"]) > 0:
                break
            await asyncio.sleep(0.05)
        else:
            raise RuntimeError(f"{url}: not ready after 30 s")
        out.append(got)
    await context.close()
    if problems:
        raise RuntimeError(f"the page failed: {problems}")
    return out


def bytes_of(m: dict[str, Any]) -> dict[str, list[int]]:
    """Bytes by kind, up to the marker: unpacked, as sent (the body), and
    transferred (with the headers; 0 from the browser's cache)."""
    nav = m["nav"]
    out: dict[str, list[int]] = {"html": [nav["decoded"], nav["body"], nav["transfer"]]}
    for e in m["res"]:
        if m["ready"] and e["end"] > m["ready"]:
            continue
        kind = kind_of(e["url"])
        got = out.setdefault(kind, [0, 0, 0])
        got[0] += e["decoded"]
        got[1] += e["body"]
        got[2] += e["transfer"]
    return out


async def load_main(args: argparse.Namespace) -> None:
    from playwright.async_api import async_playwright

    from tests.web.harness import CHROMIUM_ARGS, THEME

    path = args.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        raise SystemExit("no chromium on the PATH (Debian's package chromium; or --chromium PATH)")
    print(f"# machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{os.path.join(tmp, 'page.db')}", args.load_rooms, solver=False)
        try:
            seats = server.info["seats"]
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
                print(
                    f"# chromium {browser.version}, headless, {PHONE['width']}x{PHONE['height']} x3, touch"
                )
                if args.network == "mobile":
                    print(
                        f"# network: throttled by Chromium, {MOBILE['latency']} ms latency, "
                        "1.6 Mbit/s down, 750 kbit/s up"
                    )
                cold: list[dict[str, Any]] = []
                warm: list[dict[str, Any]] = []
                blanks: list[dict[str, Any]] = []
                for i in range(args.trials + 1):  # the first pair warms the browser up
                    room_id, round_no, user = seats[i % len(seats)]
                    stub = json.dumps(
                        {
                            "initData": launch_data(user),
                            "initDataUnsafe": {"user": {"id": int(user)}},
                            "themeParams": THEME,
                            "colorScheme": "light",
                            "version": "8.0",
                        }
                    )
                    url = f"{server.base}/app/?room={room_id}&round={round_no}"
                    blank_run = await open_once(
                        browser,
                        server.base + "/bench/blank",
                        stub,
                        blank=True,
                        again=False,
                        network=args.network,
                    )
                    page_run = await open_once(
                        browser, url, stub, blank=False, again=True, network=args.network
                    )
                    if i:
                        blanks += blank_run
                        cold.append(page_run[0])
                        warm.append(page_run[1])
                await browser.close()
        finally:
            server.stop()

    def ms(xs: list[dict[str, Any]], key: str) -> list[float]:
        return [x[key] / 1000 for x in xs]  # summary() takes seconds

    rows = [
        ("blank page, DOMContentLoaded (baseline)", summary(ms(blanks, "dcl"))),
        ("arranging page, DOMContentLoaded", summary(ms(cold, "dcl"))),
        ("arranging page, cards draggable (first load)", summary(ms(cold, "ready"))),
        ("arranging page, cards draggable (repeat visit)", summary(ms(warm, "ready"))),
    ]
    base = rows[0][1]
    print(f"\n## First load, {args.trials} fresh contexts (after one warm-up pair)")
    print("| what | median ms | p90 ms | max ms | median / baseline |")
    print("|---|---|---|---|---|")
    for name, s in rows:
        print(
            f"| {name} | {s['p50']:.0f} | {s['p90']:.0f} | {s['max']:.0f} | {s['p50'] / base['p50']:.1f} |"
        )
    print(
        "\n| bytes up to the marker | unpacked | body sent (first load) | "
        "transferred (first load) | transferred (repeat visit) |"
    )
    print("|---|---|---|---|---|")
    first, again = bytes_of(cold[0]), bytes_of(warm[0])
    kinds = sorted(set(first) | set(again), key=lambda k: (k == "telegram stub", k))
    ours = [k for k in kinds if k != "telegram stub"]
    for kind in ours:
        a, b = first.get(kind, [0, 0, 0]), again.get(kind, [0, 0, 0])
        if not any(a + b):
            continue  # the favicon's 404
        print(f"| {kind} | {a[0]:,} | {a[1]:,} | {a[2]:,} | {b[2]:,} |")

    def total(m: dict[str, list[int]], i: int) -> int:
        return sum(m[k][i] for k in ours if k in m)

    print(
        f"| total (ours) | {total(first, 0):,} | {total(first, 1):,} | {total(first, 2):,} | "
        f"{total(again, 2):,} |"
    )
    stub_ms = [
        e["end"] - e["start"]
        for m in cold
        for e in m["res"]
        if kind_of(e["url"]) == "telegram stub"
    ]
    if stub_ms:
        print(
            f"# the stand-in for telegram-web-app.js (the benchmark's route, a parser-blocking "
            f"script in <head>): median {statistics.median(stub_ms):.0f} ms of each first load"
        )
    for name, runs in (("first load", cold), ("repeat visit", warm)):
        m = runs[0]
        done = [e for e in m["res"] if e["end"] <= m["ready"]]
        cached = sum(
            1
            for e in done
            if e["transfer"] == 0 and e["decoded"] > 0 and kind_of(e["url"]) != "telegram stub"
        )
        print(
            f"# requests up to the marker, {name}: {1 + len(done)} "
            f"(the stand-in included; {cached} of ours answered by the browser's cache)"
        )
    print(f"# load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("what", nargs="?", default="both", choices=["both", "load", "api", "serve"])
    p.add_argument("--trials", type=int, default=10, help="load: fresh contexts")
    p.add_argument(
        "--chromium", default=None, help="load: the browser (default: chromium on the PATH)"
    )
    p.add_argument("--load-rooms", type=int, default=2, help="load: rooms open")
    p.add_argument(
        "--network",
        default="local",
        choices=["local", "mobile"],
        help="load: the loopback as it is, or throttled as a slow mobile network",
    )
    p.add_argument("--rooms", type=int, default=1000, help="api: rooms open")
    p.add_argument("--players", type=int, default=600, help="api: seats played, drawn at random")
    p.add_argument("--concurrency", type=int, default=4, help="api: connections")
    p.add_argument(
        "--suggest", type=float, default=0.5, help="api: share of players asking for suggestions"
    )
    p.add_argument("--pings", type=int, default=2000, help="api: baseline requests")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pg", default=PG_DEFAULT, help="api: also PostgreSQL at this URL ('' to skip)")
    p.add_argument("--db", default=None, help=argparse.SUPPRESS)  # serve: the database
    p.add_argument("--no-solver", action="store_true", help=argparse.SUPPRESS)  # serve
    args = p.parse_args(argv)
    if args.what == "serve":
        asyncio.run(serve(args))
        return 0
    if args.what in ("both", "load"):
        asyncio.run(load_main(args))
    if args.what in ("both", "api"):
        asyncio.run(api_main(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
