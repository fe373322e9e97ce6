"""bench/page_bench.py runs end to end on a few rooms (its numbers are not
checked: BENCHMARKS.md has them). The server process, the page's real
requests with real passes, and the browser's marker all have to work for
the benchmark to measure anything."""

from __future__ import annotations

import re

import pytest

from bench import page_bench
from tests.web.harness import need_chromium


def test_the_api_benchmark_plays_every_player_with_no_refusal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    page_bench.main(
        ["api", "--rooms", "3", "--players", "6", "--pings", "20", "--suggest", "0.5", "--pg", ""]
    )
    out = capsys.readouterr().out
    assert "# answers not 200: none" in out
    for request in ("GET /api/hand", "POST /api/evaluate", "POST /api/confirm"):
        row = re.search(rf"^\| {re.escape(request)} \| (\d+) \|", out, re.M)
        assert row, (request, out)
    counts = {
        name: int(n)
        for name, n in re.findall(r"^\| ((?:GET|POST) /api/\w+) \| (\d+) \|", out, re.M)
    }
    assert counts["GET /api/hand"] == counts["POST /api/confirm"] == 6
    assert counts["POST /api/evaluate"] == 6 * 13


def test_the_first_load_benchmark_sees_the_cards_draggable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    need_chromium()
    page_bench.main(["load", "--trials", "1"])
    out = capsys.readouterr().out
    row = re.search(r"^\| arranging page, cards draggable \(first load\) \| (\d+) \|", out, re.M)
    assert row and int(row.group(1)) > 0, out
    total = re.search(r"^\| total \(ours\) \| ([\d,]+) \|", out, re.M)
    assert total and int(total.group(1).replace(",", "")) > 50_000, out  # the page's files
