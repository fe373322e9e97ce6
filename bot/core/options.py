"""A room's options as the table plays them: the validated Rules of a round
and the options as shown to people. Read-only; the table changes options
(``bot.table.options``)."""

from __future__ import annotations

from typing import Any

from bot.rules.options import SETTLEMENT_OPTIONS, Rules, make_rules, preset_defaults

# Rule options the owner may set (``bot.table.options`` adds the table's own).
RULE_OPTIONS = (*SETTLEMENT_OPTIONS, "extra_three")


def rules_for(state: dict[str, Any], players: int, wild_rank: str | None = None) -> Rules:
    """The validated Rules of this room at a number of players. With the
    random wild rank (百变) on, ``wild_rank`` is the rank drawn for the round."""
    overrides = dict(state["options"]["rules"])
    if state["options"].get("random_wild_rank"):
        overrides["wild_rank"] = wild_rank or "2"
    return make_rules(state["preset"], players, overrides)


def summary(state: dict[str, Any]) -> dict[str, Any]:
    """The options as shown to people: every value the table plays with."""
    opts = state["options"]
    r = opts["rules"]
    base = preset_defaults(state["preset"])
    merged = {k: r.get(k, base.get(k)) for k in RULE_OPTIONS}
    merged["wheel"] = str(merged["wheel"])
    if opts.get("random_wild_rank"):
        merged["wild_rank"] = "random"
    merged["preset"] = state["preset"]
    merged["arrange_seconds"] = opts["arrange_seconds"]
    merged["deal_style"] = opts["deal_style"]
    merged["pictures"] = bool(opts.get("pictures", True))
    merged["rounds"] = int(opts.get("rounds") or 0)
    merged["language"] = state["language"]
    return merged
