"""Checks that a settlement's written parts add up (docs/rules.md §4, docs/judge.md
"parts" and "escape"), read from the judge's JSON object only."""

from __future__ import annotations

from typing import Any

LANES = ("head", "middle", "tail")


def breakdown_problems(out: dict[str, Any]) -> list[str]:
    """What does not add up in judge output ``out``: a pair whose parts do
    not sum to its score, a lane part that disagrees with the pair's lane
    signs or the winner's lane points, a scoop / home run written in one
    place and not the other, a total that is not its pairs plus the escape
    payments."""
    problems: list[str] = []
    players = {p["id"]: p for p in out["players"]}
    totals = dict.fromkeys(players, 0)
    doubled_by: dict[str, set[str]] = {"home_run": set(), "special_sweep": set()}
    for q in out["pairs"]:
        a, b, parts = q["a"], q["b"], q["parts"]
        where = f"pair {a}-{b}"
        if sum(x["points"] for x in parts) != q["score"]:
            problems.append(f"{where}: parts {parts} do not sum to {q['score']}")
        lane_parts = [x for x in parts if x["kind"] == "lane"]
        if q["lanes"] is None:
            if lane_parts or [x["kind"] for x in parts][:1] != ["special"]:
                problems.append(f"{where}: a special pair's parts {parts}")
        else:
            if [x["lane"] for x in lane_parts] != list(LANES) or parts[:3] != lane_parts:
                problems.append(f"{where}: lane parts {lane_parts}")
            for i, (x, sign) in enumerate(zip(lane_parts, q["lanes"], strict=False)):
                want_winner = a if sign > 0 else b if sign < 0 else None
                worth = players[want_winner]["lanes"][i] if want_winner else None
                want_points = sign * worth["points"] if worth else 0
                if x["winner"] != want_winner or x["points"] != want_points:
                    problems.append(f"{where}: lane {x} against sign {sign}")
                if worth and x["category"] != worth["category"]:
                    problems.append(f"{where}: lane {x} category, want {worth['category']}")
        scoops = [x["winner"] for x in parts if x["kind"] == "scoop"]
        if scoops != ([q["scoop"]] if q["scoop"] else []):
            problems.append(f"{where}: scoop parts {scoops} but scoop {q['scoop']}")
        for x in parts:
            if x["kind"] in doubled_by:
                doubled_by[x["kind"]].add(x["winner"])
                if x["factor"] != 2:
                    problems.append(f"{where}: {x} is not a doubling")
        totals[a] += q["score"]
        totals[b] -= q["score"]
    want_home = {out["home_run"]} if out["home_run"] else set()
    if doubled_by["home_run"] != want_home:
        problems.append(f"home run parts for {doubled_by['home_run']}, home_run {out['home_run']}")
    for e in out["escape"]:
        totals[e["from"]] -= e["points"]
        if e["to"] is not None:
            totals[e["to"]] += e["points"]
    if totals != out["totals"]:
        problems.append(f"pairs and escape payments make {totals}, totals say {out['totals']}")
    return problems


def without_breakdown(out: dict[str, Any]) -> dict[str, Any]:
    """``out`` without the written parts (what the reference computes)."""
    pairs = [{k: v for k, v in q.items() if k != "parts"} for q in out["pairs"]]
    return {**{k: v for k, v in out.items() if k != "escape"}, "pairs": pairs}
