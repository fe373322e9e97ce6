"""The regret benchmark's noise measures (bench/regret_noise.py) on totals
whose best split is known."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str = "regret_noise") -> ModuleType:
    sys.path.insert(0, str(BENCH))  # regret_rescore imports regret_noise as the scripts do
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def totals(means: list[float], deals: int, rng: np.random.Generator) -> np.ndarray:
    return np.array(means)[:, None] + rng.normal(0.0, 4.0, size=(len(means), deals))


def test_a_clear_best_is_stable_and_a_miss_is_many_standard_errors_away() -> None:
    rng = np.random.default_rng(1)
    sel, ev = totals([0.0, 3.0, -1.0], 1000, rng), totals([0.0, 3.0, -1.0], 1000, rng)
    got = load().noise(sel, ev, [0, 1, 2], {"right": 1, "wrong": 0}, seed=7)
    assert got["agree"] and got["boot"] == 1.0 and got["oracle"] == 1.0
    assert got["right"] == {
        "hit": True,
        "z": 0.0,
        "eval_hit": True,
        "merged_hit": True,
        "pick_boot": 1.0,
    }
    assert not got["wrong"]["hit"] and got["wrong"]["z"] > 10
    assert got["wrong"]["pick_boot"] == 0.0


def test_a_tie_is_unstable_and_its_miss_is_within_noise() -> None:
    rng = np.random.default_rng(2)
    sel, ev = totals([1.0, 1.0], 1000, rng), totals([1.0, 1.0], 1000, rng)
    got = load().noise(sel, ev, [0, 1], {"a": 0, "b": 1}, seed=7)
    miss = got["a"] if not got["a"]["hit"] else got["b"]
    assert got["a"]["hit"] != got["b"]["hit"]
    assert 0 < miss["z"] < 3
    assert 0 < got["boot"] < 1 and 0 < got["oracle"] < 1
    assert got["a"]["pick_boot"] + got["b"]["pick_boot"] == 1.0


def test_a_pick_off_the_frontier_is_never_the_best() -> None:
    rng = np.random.default_rng(3)
    sel, ev = totals([0.0, 9.0], 200, rng), totals([0.0, 9.0], 200, rng)
    got = load().noise(sel, ev, [0], {"off": 1}, seed=7)
    assert got["off"]["hit"] is False and got["off"]["z"] is None


def test_dumped_deals_score_a_new_pick(tmp_path: Path) -> None:
    """--rescore: a pick is scored on the dumped deals as the run scores it."""
    rng = np.random.default_rng(4)
    sel, ev = totals([0.0, 2.0, 1.0], 500, rng), totals([0.0, 2.0, 1.0], 500, rng)
    keys = np.array([(1, 2, 3), (4, 5, 6), (-1, -1, -1)])
    np.savez(
        tmp_path / "hand-7-strong.npz",
        sel=sel,
        ev=ev,
        front=np.array([0, 1, 2]),
        keys=keys,
        picks=np.array([0]),
    )
    picks = {"good": lambda i: (4, 5, 6), "bad": lambda i: "special", "off": lambda i: (9, 9, 9)}
    (row,) = load("regret_rescore").rescore(str(tmp_path), "strong", picks, lambda i: 3)
    assert row["index"] == 7 and row["strong/off/off"] is True
    regret, hit, _ = row["strong/good"]
    assert hit and regret == 0.0
    regret, hit, _ = row["strong/bad"]
    assert not hit and regret == ev[1].mean() - ev[2].mean()
    assert row["strong/noise"]["good"]["hit"] and not row["strong/noise"]["bad"]["hit"]
