"""How far the regret benchmark can tell splits apart (its noise ceiling).

``bench/solver_regret.py`` calls the split with the highest mean on a
selection pool of deals "the best response". That argmax is itself an
estimate: two splits a few hundredths of a point apart cannot be separated
by 1,000 deals. Given the per-deal totals of every candidate on the
selection pool and on the evaluation pool, this module measures:

- ``agree``: the evaluation pool's own argmax is the selection pool's
  (two independent pools of the same size agreeing on the best split);
- ``boot``: the share of bootstrap resamples of the selection pool whose
  argmax is still the selection pool's best;
- ``oracle``: treating the merged pools (2 × deals) as the truth, the share
  of resamples of the selection pool's size whose argmax is the merged best:
  how often a perfect solver would be scored "best picked";
- per pick: ``z``, the selection-pool gap between the best and the pick in
  standard errors of their paired per-deal difference (0 when picked);
  ``eval_hit`` / ``merged_hit``, the pick is the evaluation pool's / the
  merged pools' argmax; ``pick_boot``, the share of selection resamples
  whose argmax is the pick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

RESAMPLES = 200


def _argmax_rows(totals: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Argmax over candidates of each resample's mean (counts: resamples × deals)."""
    means = counts.astype(float) @ totals.T  # (resamples, candidates)
    return np.asarray(means.argmax(axis=1))


def noise(
    sel: np.ndarray, ev: np.ndarray, front: Sequence[int], picks: dict[str, int], seed: int
) -> dict[str, Any]:
    """Noise measures of one hand: ``sel`` and ``ev`` are (candidates, deals)
    totals, ``front`` the candidates the best is chosen among (the order
    breaks ties, as ``max`` does), ``picks`` each pick's candidate index."""
    rng = np.random.default_rng(seed)
    f = np.asarray(front)
    s, e = sel[f], ev[f]
    merged = np.concatenate([s, e], axis=1)
    n = s.shape[1]
    best_s = int(s.mean(axis=1).argmax())
    best_e = int(e.mean(axis=1).argmax())
    best_m = int(merged.mean(axis=1).argmax())
    unit = np.full(n, 1.0 / n)
    boot_s = _argmax_rows(s, rng.multinomial(n, unit, size=RESAMPLES) / n)
    unit_m = np.full(merged.shape[1], 1.0 / merged.shape[1])
    boot_m = _argmax_rows(merged, rng.multinomial(n, unit_m, size=RESAMPLES) / n)
    out: dict[str, Any] = {
        "agree": best_s == best_e,
        "boot": float(np.mean(boot_s == best_s)),
        "oracle": float(np.mean(boot_m == best_m)),
    }
    for name, i in picks.items():
        where = np.flatnonzero(f == i)
        if len(where) == 0:  # a pick off the frontier: it is never the best
            out[name] = {"hit": False, "z": None, "eval_hit": False, "merged_hit": False}
            out[name]["pick_boot"] = 0.0
            continue
        j = int(where[0])
        diff = s[best_s] - s[j]
        sd = diff.std(ddof=1)
        z = 0.0 if j == best_s else (float(diff.mean() / (sd / np.sqrt(n))) if sd > 0 else None)
        out[name] = {
            "hit": j == best_s,
            "z": z,
            "eval_hit": j == best_e,
            "merged_hit": j == best_m,
            "pick_boot": float(np.mean(boot_s == j)),
        }
    return out


def summarize_noise(results: list[dict[str, Any]], table: str, picks: Sequence[str]) -> None:
    got = [r[f"{table}/noise"] for r in results if f"{table}/noise" in r]
    if not got:
        return
    n = len(got)

    def share(xs: Sequence[float]) -> str:
        m = float(np.mean(xs))
        half = 1.96 * float(np.std(np.asarray(xs, dtype=float), ddof=1)) / np.sqrt(len(xs))
        return f"{m:5.1%} [{m - half:.1%}, {m + half:.1%}]"

    print(f"\nnoise ceiling, {n} hands (share of hands, 95% interval)")
    print(
        f"  selection and evaluation pools agree on the best   {share([g['agree'] for g in got])}"
    )
    print(f"  selection resample keeps the selection best        {share([g['boot'] for g in got])}")
    print(
        f"  oracle: resample of the merged pools hits its best {share([g['oracle'] for g in got])}"
    )
    for name in picks:
        rows = [g[name] for g in got if name in g]
        if not rows:
            continue
        miss = np.array([r["z"] or 0.0 for r in rows if not r["hit"]])
        print(f"  {name}: best of the evaluation pool   {share([r['eval_hit'] for r in rows])}")
        print(f"  {name}: best of the merged pools      {share([r['merged_hit'] for r in rows])}")
        print(f"  {name}: selection resamples picking it {share([r['pick_boot'] for r in rows])}")
        if len(miss):
            print(
                f"  {name}: misses {len(miss)}, gap to the best in paired standard errors: "
                f"median {np.median(miss):.2f}, < 1 SE {np.mean(miss < 1):.0%}, "
                f"< 1.96 SE {np.mean(miss < 1.96):.0%}"
            )
