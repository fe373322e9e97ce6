"""Client CPU per PostgreSQL save_room through the repository's connection
pool: N rooms saving back to back on one event loop (more rooms than
connections, so most calls wait for a connection).

    .venv/bin/python bench/pg_pool_cpu.py ROOMS SAVES [URL]

Run it from two checkouts in turn to compare pools (BENCHMARKS.md).
"""

import asyncio
import os
import resource
import sys
import time

sys.path.insert(0, os.getcwd())

from storage.api import RoomStatus  # noqa: E402
from storage.sql import SqlRepository  # noqa: E402

URL = sys.argv[3] if len(sys.argv) > 3 else "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def main(rooms: int, saves: int) -> None:
    repo = SqlRepository(URL, pool_size=8)
    await repo.init()
    rs = [
        await repo.create_room("bench", f"c{time.time_ns()}-{i}", {"x": "y" * 1500})
        for i in range(rooms)
    ]

    async def one(r) -> None:  # type: ignore[no-untyped-def]
        v = r.version
        for k in range(saves):
            v = await repo.save_room(r.room_id, {"x": "y" * 1500, "k": k}, v)

    c0, t0 = cpu(), time.perf_counter()
    await asyncio.gather(*(one(r) for r in rs))
    c1, t1 = cpu(), time.perf_counter()
    n = rooms * saves
    print(
        f"{rooms:3d} rooms: {n / (t1 - t0):7.0f} saves/s, client CPU {1e6 * (c1 - c0) / n:6.0f} us/save"
    )
    for r in rs:
        await repo.save_room(r.room_id, {}, r.version + saves, status=RoomStatus.CLOSED)
    await repo.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
