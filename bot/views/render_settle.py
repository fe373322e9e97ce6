"""A round's settlement post: lanes per player, pairwise scores, scoops,
home run, specials, escapes, round and running totals, and the deck with
its salt so anyone can check the hash published at the deal."""

from __future__ import annotations

from typing import Any

from bot.core import lanes as H
from bot.core.actions import Verb

from .i18n import t
from .model import Audience, ButtonStyle, View, ViewKind
from .render_common import (
    button,
    cards_text,
    category,
    lane,
    lane_text,
    lang_of,
    name,
    rows,
    signed,
    special,
)

LANES = ("head", "middle", "tail")


def settlement_lines(state: dict[str, Any]) -> list[str]:
    lang = lang_of(state)
    rnd = state["round"]
    result = rnd["result"]
    st = result["settlement"]
    by_id = {p["id"]: p for p in st["players"]}
    lines: list[str] = []
    for key in rnd["seats"]:
        p = by_id[key]
        hand = rnd["hands"][key]
        marks = []
        if hand["auto"]:
            marks.append(t(lang, "settle.auto_mark"))
        if key in rnd["escaped"]:
            marks.append(t(lang, "settle.escaped_mark"))
        if rnd.get("banker") == key:
            marks.append(t(lang, "settle.banker_mark"))
        head = f"{name(state, key)}: {signed(p['total'])}" + (
            f" ({', '.join(marks)})" if marks else ""
        )
        lines.append(head)
        arr = H.arrangement_tokens(hand)
        if p["special"]:
            lines.append(
                "  "
                + t(
                    lang,
                    "settle.special",
                    special=special(lang, p["special"]),
                    cards=cards_text(H.kept_tokens(hand)),
                )
            )
        else:
            for i, lane_name in enumerate(LANES):
                cat = category(lang, p["lanes"][i]["category"]) if p["lanes"] else ""
                lines.append(f"  {lane(lang, lane_name)}: {lane_text(arr[lane_name])} ({cat})")
    lines.append(t(lang, "settle.pairs"))
    for q in st["pairs"]:
        extra = ""
        if q["scoop"]:
            extra = " " + t(lang, "settle.scoop", name=name(state, q["scoop"]))
        lanes = ""
        if q["lanes"] is not None:
            lanes = " [" + " ".join(signed(x) if x else "0" for x in q["lanes"]) + "]"
        lines.append(
            f"  {name(state, q['a'])} – {name(state, q['b'])}: {signed(q['score'])}{lanes}{extra}"
        )
    if st.get("home_run"):
        lines.append(t(lang, "settle.home_run", name=name(state, st["home_run"])))
    for key in rnd["escaped"]:
        lines.append(t(lang, "settle.escaped", name=name(state, key)))
    lines.append(t(lang, "settle.round_totals"))
    for key in rnd["seats"]:
        lines.append(f"  {name(state, key)}: {signed(st['totals'].get(key, 0))}")
    lines.append(t(lang, "settle.running_totals"))
    for key, pts in sorted(state["totals"].items(), key=lambda kv: -kv[1]):
        lines.append(f"  {name(state, key)}: {signed(pts)}")
    lines.append(t(lang, "settle.hash", hash=rnd["hash"]))
    lines.append(t(lang, "settle.salt", salt=rnd["salt"]))
    lines.append(t(lang, "settle.deck", deck=" ".join(rnd["deck"])))
    return lines


def settlement_view(state: dict[str, Any]) -> View:
    lang = lang_of(state)
    rnd = state["round"]
    rid, no = state["room_id"], state["round_no"]
    buttons = []
    if state["phase"] == "lobby":
        buttons = [
            button(t(lang, "btn.next_round"), rid, no, Verb.START, style=ButtonStyle.PRIMARY),
            button(t(lang, "btn.verify"), rid, no, Verb.VERIFY, str(rnd["no"])),
            button(t(lang, "btn.leaderboard"), rid, no, Verb.LEADERBOARD, "all"),
        ]
    return View(
        kind=ViewKind.SETTLEMENT,
        audience=Audience.GROUP,
        key=f"settle:{rid}:{rnd['no']}",
        title=t(lang, "settle.title", round=rnd["no"]),
        lines=tuple(settlement_lines(state)),
        buttons=tuple(rows(buttons)),
        platform=state["platform"],
        chat_id=state["chat_id"],
        language=lang,
        fresh=True,
        meta={"round": str(rnd["no"])},
    )
