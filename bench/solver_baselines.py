"""Baseline arrangement strategies the solver is measured against (bench only).

- strongest tail first: the strongest 5 cards as tail, the strongest 5 of the
  rest as middle, the rest as head (always legal for 13 cards).
- lane-percentile sum: the legal split maximising the sum of each lane's
  strength percentile among random lanes of its size (random 5-card and
  3-card draws from the same deck).

Both declare any special hand they hold.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bot.rules import Arrangement, Card, Rules, detect_special
from bot.solver.model import opponent_model, percentile_values
from bot.solver.search import arrangement, evaluate_hand, legal_rows, top_rows


def strongest_tail_first(cards: Sequence[Card], rules: Rules) -> tuple[Arrangement, bool]:
    he = evaluate_hand(cards, rules)
    tail = int(np.argmax(he.c5))
    used = set(he.sp.five[tail].tolist())
    rest5 = np.array([not used & set(row) for row in he.sp.five.tolist()])
    middle = int(np.flatnonzero(rest5)[np.argmax(he.c5[rest5])])
    left = used | set(he.sp.five[middle].tolist())
    head_ok = np.array([not left & set(row) for row in he.sp.three.tolist()])
    head = int(np.flatnonzero(head_ok)[np.argmax(he.c3[head_ok])])
    return arrangement(he, tail, middle, head), detect_special(cards, rules) is not None


def lane_percentile_sum(cards: Sequence[Card], rules: Rules) -> tuple[Arrangement, bool]:
    he = evaluate_hand(cards, rules)
    model = opponent_model(rules)  # only its random-lane samples are used
    rows = top_rows(
        legal_rows(he, *percentile_values(he, model.random5, model.random3), limit=1), 1
    )
    arr = arrangement(he, int(rows.tail[0]), int(rows.middle[0]), int(rows.head[0]))
    return arr, detect_special(cards, rules) is not None
