"""Score the current solver's picks on the deals a regret run dumped.

``solver_regret.py --dump DIR`` keeps each hand's per-deal totals of every
candidate split on both pools. When only the pick changes (the opponents'
own arrangements, here our strong seats', are the same as in the dumped
run), the current pick can be scored on exactly those deals without dealing
them again: ``solver_regret.py --rescore DIR`` does that, checking that the
pick is among the dumped candidates (a pick off the hand's frontier cannot
be scored this way and is reported); the dumped run's own picks are
scored beside them as ``NAME@run`` (same hands, same deals: a paired
comparison). If the opponents' play changed, the
dumped deals are not the benchmark any more: run it again instead.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from regret_noise import noise

Pick = Callable[[int], object]  # hand index -> lane codes or "special"


def rescore(
    folder: str, table: str, picks: dict[str, Pick], noise_seed: Callable[[int], int]
) -> list[dict[str, Any]]:
    """Per-hand results as ``run_hand`` gives them, for the dumped hands."""
    files = sorted(
        Path(folder).glob(f"hand-*-{table}.npz"),
        key=lambda p: int(re.findall(r"hand-(\d+)", p.name)[0]),
    )
    out: list[dict[str, Any]] = []
    for path in files:
        index = int(re.findall(r"hand-(\d+)", path.name)[0])
        with np.load(path) as d:
            sel, ev, front = d["sel"].astype(float), d["ev"].astype(float), list(d["front"])
            keys: list[object] = [tuple(int(x) for x in k) for k in d["keys"]]
            dumped = [int(i) for i in d["picks"]]
            names = [str(x) for x in d["pick_names"]] if "pick_names" in d else []
        keys = ["special" if k == (-1, -1, -1) else k for k in keys]
        if not names and len(dumped) == len(picks):  # older dumps: the --picks order
            names = list(picks)
        names += [f"pick{j}" for j in range(len(names), len(dumped))]
        # The dumped run's own picks, as rows "NAME@run" beside the current ones.
        was = {f"{name}@run": keys[i] for name, i in zip(names, dumped, strict=True)}
        scored = {**picks, **{name: (lambda _, k=key: k) for name, key in was.items()}}
        vs, ve = sel.mean(axis=1), ev.mean(axis=1)
        best = max(front, key=lambda i: vs[i])
        row: dict[str, Any] = {"index": index, "frontier": len(front)}
        picked: dict[str, int] = {}
        for name, pick in scored.items():
            key = pick(index)
            if key not in keys:
                row[f"{table}/{name}/off"] = True
                continue
            i = keys.index(key)
            picked[name] = i
            same = bool(vs[i] == vs[best] and ve[i] == ve[best])
            row[f"{table}/{name}"] = (float(ve[best] - ve[i]), i == best, same)
        row[f"{table}/noise"] = noise(sel, ev, front, picked, noise_seed(index))
        out.append(row)
    return out


def hero_of(index: int, seed: int, deck: Sequence[Any]) -> list[Any]:
    """The hand ``run_hand`` deals for this index (the same draws)."""
    return random.Random(f"{seed}-{index}").sample(list(deck), 13)
