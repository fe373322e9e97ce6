"""What a host's machine needs: the memory and CPU of ``thirteen run`` as a
process, idle and while groups of friends play.

``thirteen run`` runs as a separate process (tests/procs/botproc.py),
polling the fake Bot API of tests/telegram, on a new SQLite file, with the
solver at its default sizes and its cache in a folder of its own; the
players are scripted people tapping in the chats (tests/procs/game.py), text
or pictures as ``--pictures`` says. Read from the process's /proc entry:

  first start   the first start on an empty solver cache, until the log says
                the full opponent pools are built: the peak memory (VmHWM)
                and the CPU the build took (a minute or more of one core)
  idle          a later start (the cache read back), ``--idle`` seconds with
                nothing to do: the resident memory (VmRSS) and the CPU it
                uses meanwhile (long polls): the baseline of the run
  playing       ``--groups`` groups of ``--players`` people at once, each
                playing ``--rounds`` rounds (Suggest, Apply, Confirm: a
                player in a hurry): memory after, its peak, and the CPU per
                round above the idle rate

    python bench/host_bench.py [--groups 5] [--players 4] [--rounds 3] [--pictures]
    (= thirteen bench host_bench)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.table.actions import Verb  # noqa: E402
from tests.procs.botproc import BotProcess, Players, TgUser, bot_env, until  # noqa: E402
from tests.procs.game import Fleet, Script  # noqa: E402
from tests.telegram.fakebotapi import FakeBotAPI  # noqa: E402

BUILT = re.compile(r"solver: the full opponent pools for .* are built")
GUARD = 900.0  # seconds: a hang guard, never a speed limit
TICK = os.sysconf("SC_CLK_TCK")


def memory_mb(pid: int) -> dict[str, float]:
    """VmRSS (resident now) and VmHWM (its peak), in MB."""
    found: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0]) / 1024
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU of the process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def pid_of(bot: BotProcess) -> int:
    assert bot.proc is not None
    return bot.proc.pid


async def first_start(api: FakeBotAPI, env: dict[str, str], workdir: Path) -> None:
    bot = BotProcess(env, workdir)
    fleet = Fleet(api, [bot])
    started = time.monotonic()
    await fleet.start_all()
    await until(lambda: BUILT.search(bot.log_text()), "the full pools", GUARD)
    pid = pid_of(bot)
    mem, cpu = memory_mb(pid), cpu_seconds(pid)
    print(
        f"first start (empty cache): pools built after {time.monotonic() - started:.0f} s, "
        f"CPU {cpu:.0f} s, memory peak {mem['VmHWM']:.0f} MB, now {mem['VmRSS']:.0f} MB",
        flush=True,
    )
    await fleet.stop_all()
    await asyncio.sleep(1.5)  # its last long poll must not take the next start's updates


async def play(script: Script, seated: list[TgUser], rounds: int) -> None:
    await script.play_first_round(seated)
    players = script.players
    for n in range(2, rounds + 1):
        settled = players.settlements(n - 1)[0]
        assert await script.tap(seated[0], settled, Verb.START)
        await until(lambda n=n: all(players.hand(u, n) for u in seated), f"round {n}", GUARD)
        for user in seated:
            await script.arrange(user, n)
        await until(lambda n=n: players.settlements(n), f"round {n} settled", GUARD)


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="thirteen-host-") as tmp:
        workdir = Path(tmp)
        api = FakeBotAPI()
        await api.start()
        try:
            env = bot_env(api, f"sqlite:///{workdir / 'bot.db'}", ARRANGE_SECONDS="300")
            for name in [k for k in env if k.startswith("THIRTEEN_SOLVER_")]:
                env.pop(name)  # the defaults, as a user's .env has them
            env["THIRTEEN_SOLVER_CACHE"] = str(workdir / "solver-cache")
            env["PICTURES"] = "true" if args.pictures else "false"
            print(
                f"machine: {platform.machine()}, {os.cpu_count()} cores, "
                f"python {sys.version.split()[0]}; pictures {env['PICTURES']}"
            )
            print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
            await first_start(api, env, workdir)

            bot = BotProcess(env, workdir)
            fleet = Fleet(api, [bot])
            await fleet.start_all()
            pid = pid_of(bot)
            await asyncio.sleep(5)  # the cache read back, the start's work done
            cpu0, wall0 = cpu_seconds(pid), time.monotonic()
            await asyncio.sleep(args.idle)
            idle_rate = (cpu_seconds(pid) - cpu0) / (time.monotonic() - wall0)
            idle = memory_mb(pid)
            print(
                f"idle (cache read back): memory {idle['VmRSS']:.0f} MB, "
                f"CPU {idle_rate * 100:.2f} % of a core",
                flush=True,
            )

            scripts, seats = [], []
            for g in range(args.groups):
                users = [TgUser(1000 + g * 10 + i, f"P{g}x{i}") for i in range(args.players)]
                api.opened |= {u.id for u in users}
                scripts.append(Script(Players(api, group_id=-1_000_000 - g), fleet))
                seats.append(users)
            cpu0, wall0 = cpu_seconds(pid), time.monotonic()
            await asyncio.gather(
                *(play(s, u, args.rounds) for s, u in zip(scripts, seats, strict=True))
            )
            wall = time.monotonic() - wall0
            cpu = cpu_seconds(pid) - cpu0 - idle_rate * wall
            rounds = args.groups * args.rounds
            after = memory_mb(pid)
            print(
                f"playing: {args.groups} groups of {args.players} at once, {rounds} rounds in "
                f"{wall:.0f} s: CPU {cpu:.1f} s above idle ({cpu / rounds * 1000:.0f} ms a round, "
                f"{cpu / wall * 100:.1f} % of a core over the run); memory {after['VmRSS']:.0f} MB "
                f"(+{after['VmRSS'] - idle['VmRSS']:.0f} MB on idle), peak {after['VmHWM']:.0f} MB",
                flush=True,
            )
            status = await bot.terminate()
            if status != 0:
                raise SystemExit(f"the bot exited with {status}: {bot.log_text()[-3000:]}")
            print(f"load average after: {os.getloadavg()[0]:.2f}")
        finally:
            await api.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=5, help="groups playing at once")
    parser.add_argument("--players", type=int, default=4, help="people in each group")
    parser.add_argument("--rounds", type=int, default=3, help="rounds each group plays")
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of idle measured")
    parser.add_argument("--pictures", action="store_true", help="card pictures on (the default)")
    asyncio.run(main(parser.parse_args()))
