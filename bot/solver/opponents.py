"""How the table is modelled: the pool of opponents' arrangements per deck
setting, built once (seconds of CPU) and kept on disk.

The pool holds three groups of entries, each a hand dealt from the whole
deck (fixed seed) and arranged one way (``pool.POLICIES``):

- ``strong`` (2/3 of the pool size): as our strong seats play, the best
  response (``best``) against a first, smaller pool (1/3 of the size)
  arranged by the separable expected points of ``model.lane_values``;
  they declare a special when that is worth at least their arrangement;
- ``percentile`` (2/3): the lane-percentile sum, as our normal seats play
  and as many people balance a hand (the split whose lanes beat the
  largest shares of random lanes of their size); they declare any special;
- ``tail-first`` (1/3): strongest tail first, as our easy seats play.

``pool.table_weights`` mixes the groups by who sits at the table: a normal
or easy AI seat plays its own group's way; a person, and a strong seat, is
the whole pool as dealt. Measured (BENCHMARKS.md): the best response to the
whole pool loses little against a table of strong seats (which play that
same best response), less than answering the strong group alone, and stays
far ahead against tables that build strong heads. 多三张 pools
(16 cards) hold separable players only: a 16-card best response costs too
much to arrange a pool with.

Beside it, the pool of how our strong seats themselves play (``seat_pool``):
hands dealt with another seed and arranged as a strong AI seat does (the
best response to the whole pool above, declaring as it would). Suggestions
answer it for the strong seats at the table: the best response to the
seats as they really play (measured: BENCHMARKS.md, the regret section),
while the strong seats keep answering the whole pool (answering one another
would be a different table). Like the strong group, it is arranged for
the table that first asks for the deck setting's pool (its player count and
scoring). 13-card settings only; none while the main pool is a quick one.
Building it costs about as much as the strong group (~14 s of CPU at the
default size); it is kept on disk beside the pool.

The deep seat pool (``deep_seat_pool``): the seat pool and ``DEEP_FACTOR``
times the pool size more hands (another seed) arranged the same way. A
suggestion's few best splits are re-ranked against it (``best.rerank``):
with card removal a pool of 3,000 weighs like ~700 hands, as noisy as the
near-ties among the best splits. Built after the seat pool (~90 s of CPU at
the default size) by ``prepare`` or, after a quick warm-up, ``refine``,
off the event loop, and kept on disk; until it is there (and where the
pool was built lazily by a first suggestion) the seat pool alone ranks.

A built pool is saved in ``config.cache_dir()`` (the setting
``THIRTEEN_SOLVER_CACHE``; default
``thirteen-water`` in the user's cache folder, ``$XDG_CACHE_HOME`` or
``.cache`` in the home folder; ``off``
to never read or write it), in a file named by a digest of the setting,
the pool size and the solver's and rules engine's source, so a changed
solver never reads an old pool.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bot.rules import Card, Rules, detect_special

from . import config
from .arrays import F64
from .best import scored, special_value
from .model import (
    SEPARABLE_TABLE,
    best_row,
    lane_values,
    model_key,
    model_rules,
    opponent_model,
    percentile_values,
    table_of,
    tail_first_values,
)
from .pool import POLICIES, Pool, hand_counts, pool_of
from .search import HandEval, evaluate_hand

log = logging.getLogger(__name__)
SEED = 2_013_13

PoolKey = tuple[object, ...]
_POOLS: dict[PoolKey, Pool] = {}
_SEATS: dict[PoolKey, tuple[Pool, Pool]] = {}  # the full pool, its seat pool
_QUICK: set[PoolKey] = set()  # pools still quick, waiting for ``refine``
# Hands of a quick pool: about 2.5 s of CPU on one core against ~27 s for
# the default 6,000 and its seat pool; suggestions from it are a little
# noisier and answer strong seats as people.
QUICK_HANDS = 900
DEEP_FACTOR = 3  # hands of the deep seat pool beyond the seat pool, per pool hand
_DEEP: dict[PoolKey, tuple[Pool, Pool]] = {}  # the full pool, its deep seat pool


def pool_size(cards_per_player: int) -> int:
    """Hands in a pool (``config``: 13 cards or 多三张); the tests use small pools."""
    knobs = config.current()
    return knobs.pool_hands_16 if cards_per_player == 16 else knobs.pool_hands


def pool_key(rules: Rules) -> PoolKey:
    return (*model_key(rules), rules.preset, rules.cards_per_player)


def opponent_pool(rules: Rules, *, quick: bool = False) -> Pool:
    """The pool of a deck setting and hand size: from memory, from the disk
    cache, or built (seconds of CPU: ``prepare`` does it off the event loop).
    With ``quick`` a pool that has to be built is a quick one
    (``QUICK_HANDS``): a live table's first round of a new deck setting must
    not wait for the full build, which ``refine`` does afterwards."""
    key = pool_key(rules)
    pool = _POOLS.get(key)
    if pool is None:
        pool = _POOLS[key] = _load_or_build(rules, quick=quick)
    return pool


def seat_pool(rules: Rules) -> Pool | None:
    """How our strong seats play this deck setting: hands arranged as
    ``ai_arrange(..., "strong")`` does at a table of people, built with the
    full pool (half its size) and kept on disk beside it; None for 多三张
    and while the pool in memory is a quick one."""
    base = opponent_pool(rules)
    held = _SEATS.get(pool_key(rules))
    return held[1] if held is not None and held[0] is base else None


def deep_seat_pool(rules: Rules) -> Pool | None:
    """The seat pool and ``DEEP_FACTOR`` times the pool size more hands
    arranged as strong seats play (a new seed), for re-ranking the best
    splits; None where there is no seat pool."""
    base = opponent_pool(rules)
    held = _DEEP.get(pool_key(rules))
    return held[1] if held is not None and held[0] is base else None


def _load_or_build_seats(rules: Rules, base: Pool) -> None:
    if rules.cards_per_player != 13:
        return
    path = _cache_file(rules, "seats")
    seats = _load(path, rules) if path is not None else None
    if seats is None:
        seats = _seat_entries(model_rules(rules), base, max(pool_size(13) // 2, 1))
        if path is not None:
            _save(path, seats)
    _SEATS[pool_key(rules)] = (base, seats)
    _deepen(rules, base, build=False)


def deepen(rules: Rules, *, build: bool = True) -> bool:
    """Load the deep seat pool of a deck setting from the disk cache, or
    (``build``) build it (minutes of CPU the first time: ``api.prepare`` and
    ``api.refine`` do it off the event loop; a pool used before them never
    builds it). True when it is there afterwards."""
    return _deepen(rules, opponent_pool(rules), build=build)


def _deepen(rules: Rules, base: Pool, *, build: bool) -> bool:
    key = pool_key(rules)
    held = _SEATS.get(key)
    if held is None or held[0] is not base:
        return False
    have = _DEEP.get(key)
    if have is not None and have[0] is base:
        return True
    path = _cache_file(rules, "deep")
    deep = _load(path, rules) if path is not None else None
    if deep is None:
        if not build:
            return False
        more = _seat_entries(model_rules(rules), base, DEEP_FACTOR * pool_size(13), SEED + 2)
        deep = joined(held[1], more, rules)
        if path is not None:
            _save(path, deep)
    _DEEP[key] = (base, deep)
    return True


def joined(a: Pool, b: Pool, rules: Rules) -> Pool:
    """One pool of the entries of ``a`` and of ``b``."""
    return pool_of(
        np.concatenate([a.codes, b.codes]),
        np.concatenate([a.special, b.special]),
        np.concatenate([a.ranks, b.ranks]),
        np.concatenate([a.suits, b.suits]),
        rules,
        np.concatenate([a.policy, b.policy]),
    )


def _seat_entries(rules: Rules, base: Pool, n: int, seed: int = SEED + 1) -> Pool:
    """``n`` hands dealt with their own seed, arranged as a strong seat plays
    against ``base`` (the whole pool as dealt: a table of people)."""
    rng = np.random.default_rng(seed)
    hands = _deal(rules, rng, n)
    return _entries(rules, hands, ["strong"] * n, base)


def is_built(rules: Rules) -> bool:
    """Whether the deck setting's pool (and for 13 cards its seat pool) is
    in memory or in the disk cache: a suggestion then builds nothing."""
    key = pool_key(rules)
    if key in _POOLS and key not in _QUICK:
        return True
    kinds = ("pool", "seats") if rules.cards_per_player == 13 else ("pool",)
    paths = [_cache_file(rules, kind) for kind in kinds]
    return all(path is not None and path.is_file() for path in paths)


def is_quick(rules: Rules) -> bool:
    """Whether the deck setting's pool in memory is a quick one."""
    return pool_key(rules) in _QUICK


def refine(rules: Rules) -> bool:
    """Replace a quick pool by the full one (built, then kept on disk), and
    build the deep seat pool if it is missing. True when it built either;
    False when both were already there."""
    key = pool_key(rules)
    built = False
    if key not in _POOLS or key in _QUICK:
        _POOLS[key] = _load_or_build(rules, quick=False)
        built = True
    if rules.cards_per_player == 13 and deep_seat_pool(rules) is None:
        built = deepen(rules) or built
    return built


def _load_or_build(rules: Rules, *, quick: bool) -> Pool:
    key = pool_key(rules)
    path = _cache_file(rules)
    pool = _load(path, rules) if path is not None else None
    if pool is not None:
        _load_or_build_seats(rules, pool)
        _QUICK.discard(key)
        return pool
    n = pool_size(rules.cards_per_player)
    if quick and n > QUICK_HANDS:
        _QUICK.add(key)
        return _build(model_rules(rules), QUICK_HANDS)
    pool = _build(model_rules(rules), n)
    if path is not None:
        _save(path, pool)
    _load_or_build_seats(rules, pool)
    _QUICK.discard(key)
    return pool


def _source_digest() -> str:
    h = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for folder in (here, here.parent / "rules"):
        for f in sorted(folder.glob("*.py")):
            h.update(f.name.encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def _cache_file(rules: Rules, kind: str = "pool") -> Path | None:
    where = config.cache_dir()
    if where is None:
        return None
    size = pool_size(rules.cards_per_player)
    what = repr((pool_key(rules), size, SEED, _source_digest()))
    return where / f"{kind}-{hashlib.sha256(what.encode()).hexdigest()[:24]}.npz"


def _load(path: Path, rules: Rules) -> Pool | None:
    try:
        with np.load(path) as f:
            return pool_of(f["codes"], f["special"], f["ranks"], f["suits"], rules, f["policy"])
    except (OSError, KeyError, ValueError):
        return None


def _save(path: Path, pool: Pool) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(
            tmp,
            codes=pool.codes,
            special=pool.special,
            ranks=pool.ranks,
            suits=pool.suits,
            policy=pool.policy,
        )
        tmp.replace(path)
    except OSError as e:  # a read-only home only costs the next start a rebuild
        log.warning("could not keep the solver's opponent pool in %s: %s", path, e)


def _deal(rules: Rules, rng: np.random.Generator, n: int) -> list[list[Card]]:
    deck = rules.deck.cards()
    size = rules.cards_per_player
    return [[deck[j] for j in rng.choice(len(deck), size, replace=False)] for _ in range(n)]


def _entries(
    rules: Rules, hands: Sequence[Sequence[Card]], play: Sequence[str], seed: Pool | None
) -> Pool:
    """The pool of ``hands``, hand i arranged by policy ``play[i]``:
    ``separable``, ``strong`` (best response to ``seed``), ``percentile``
    or ``tail-first``."""
    model = opponent_model(rules)
    table = table_of(rules, None)
    codes = np.zeros((len(hands), 3), dtype=np.int64)
    special = np.zeros(len(hands))
    for i, (hand, how) in enumerate(zip(hands, play, strict=True)):
        he = evaluate_hand(hand, rules)
        found = detect_special(hand, rules) if len(hand) == 13 else None
        if how == "strong" and seed is not None:
            rows, score = scored(he, rules, table, seed)
            best = int(np.argmax(score))
            codes[i] = (he.c3[rows.head[best]], he.c5[rows.middle[best]], he.c5[rows.tail[best]])
            declare = found is not None and special_value(found, rules, table) >= score[best]
        else:
            if how == "percentile":
                values = percentile_values(he, model.random5, model.random3)
            elif how == "tail-first":
                values = tail_first_values(he)
            else:
                values = lane_values(he, model, SEPARABLE_TABLE)
            t, m, h = best_row(he, values)
            codes[i] = (he.c3[h], he.c5[m], he.c5[t])
            declare = found is not None and (
                how != "separable" or found.points >= _separable(he, values, (t, m, h))
            )
        if declare and found is not None:
            special[i] = found.points
    ranks, suits = hand_counts(hands, rules)
    policy = [POLICIES.index(how) if how in POLICIES else 0 for how in play]
    return pool_of(codes, special, ranks, suits, rules, np.array(policy, dtype=np.int8))


def _separable(he: HandEval, values: tuple[F64, F64, F64], row: tuple[int, int, int]) -> float:
    t, m, h = row
    return float(values[0][t] + values[1][m] + values[2][h])


def _build(rules: Rules, n: int) -> Pool:
    rng = np.random.default_rng(SEED)
    if rules.cards_per_player == 16:
        return _entries(rules, _deal(rules, rng, n), ["separable"] * n, None)
    third = max(n // 3, 1)
    seed_hands = _deal(rules, rng, third)
    seed = _entries(rules, seed_hands, ["separable"] * third, None)
    play = ["strong"] * (2 * third) + ["percentile"] * (2 * third) + ["tail-first"] * third
    return _entries(rules, _deal(rules, rng, len(play)), play, seed)
