"""Room transitions outside arranging: a new room, join, leave, options,
AI seats, language, close. Owner-only actions are checked here."""

from __future__ import annotations

from typing import Any

from bot.rules.options import OptionError, Preset
from bot.views.i18n import normalize_language

from .actions import Actor
from .effects import Effects
from .hand import Refused
from .options import apply_option, default_options
from .round import Ctx, escape, fix_owner, player, start_round

MAX_PLAYERS = 5
AI_LEVELS = ("easy", "normal", "strong")
STATE_VERSION = 1


def new_state(
    actor: Actor,
    platform: str,
    chat_id: str,
    preset: str | None,
    language: str,
    arrange_seconds: int,
) -> dict[str, Any]:
    p = (preset or "classic").strip().lower()
    try:
        p = Preset(p).value
    except ValueError:
        raise Refused("err.bad_preset", preset=(preset or "")[:24]) from None
    return {
        "v": STATE_VERSION,
        "platform": platform,
        "chat_id": chat_id,
        "owner": actor.key,
        "phase": "lobby",
        "round_no": 0,
        "language": language,
        "preset": p,
        "options": default_options(arrange_seconds),
        "players": [{"key": actor.key, "name": actor.name or actor.user_id, "ai": None}],
        "names": {actor.key: actor.name or actor.user_id},
        "ai_seq": 0,
        "totals": {},
        "round": None,
    }


def _owner(state: dict[str, Any], actor: Actor) -> None:
    if actor.key != state["owner"]:
        raise Refused("err.owner_only")


def _lobby(state: dict[str, Any]) -> None:
    if state["phase"] != "lobby":
        raise Refused("err.round_running")


def join(state: dict[str, Any], actor: Actor) -> Effects:
    _lobby(state)
    if player(state, actor.key):
        raise Refused("err.already_joined")
    if len(state["players"]) >= MAX_PLAYERS:
        raise Refused("err.room_full")
    name = actor.name or actor.user_id
    state["players"].append({"key": actor.key, "name": name, "ai": None})
    state["names"][actor.key] = name
    return Effects(table=True, toast=("toast.joined", {}))


def leave(state: dict[str, Any], actor: Actor, ctx: Ctx) -> Effects:
    if player(state, actor.key) is None:
        raise Refused("err.not_player")
    rnd = state.get("round")
    if state["phase"] == "arranging" and rnd and actor.key in rnd["hands"]:
        return escape(state, actor.key, ctx)
    if state["phase"] == "showdown" and rnd and actor.key in rnd["hands"]:
        # The result is fixed already; the seat empties when the round is paid.
        if actor.key not in rnd["leaving"]:
            rnd["leaving"].append(actor.key)
        return Effects(table=True, toast=("toast.left", {}))
    state["players"] = [p for p in state["players"] if p["key"] != actor.key]
    # The owner passes to a human still seated; with only AI seats left the
    # owner stays (and may watch them play); an empty room closes.
    fix_owner(state)
    return Effects(table=True, toast=("toast.left", {}))


def set_option(state: dict[str, Any], actor: Actor, arg: str | None) -> Effects:
    _owner(state, actor)
    _lobby(state)
    try:
        name, value = apply_option(state, arg, len(state["players"]))
    except OptionError as e:
        raise Refused("err.option", reason=_reason(state, e)) from None
    return Effects(table=True, toast=("toast.option_set", {"name": name, "value": value}))


def set_language(state: dict[str, Any], actor: Actor, arg: str | None) -> Effects:
    _owner(state, actor)
    if not arg or not arg.lower().startswith(("en", "zh")):
        raise Refused("err.bad_arg")
    state["language"] = normalize_language(arg)
    return Effects(
        table=True, toast=("toast.option_set", {"name": "language", "value": state["language"]})
    )


def add_ai(
    state: dict[str, Any], actor: Actor, arg: str | None, default: str = "normal"
) -> Effects:
    _owner(state, actor)
    _lobby(state)
    level = (arg or default).lower()
    if level not in AI_LEVELS:
        raise Refused("err.bad_arg")
    if len(state["players"]) >= MAX_PLAYERS:
        raise Refused("err.room_full")
    state["ai_seq"] += 1
    key = f"ai:{state['ai_seq']}"
    state["players"].append({"key": key, "name": f"AI-{state['ai_seq']}", "ai": level})
    state["names"][key] = f"AI-{state['ai_seq']}"
    return Effects(table=True)


def remove_ai(state: dict[str, Any], actor: Actor, arg: str | None) -> Effects:
    _owner(state, actor)
    _lobby(state)
    ais = [p for p in state["players"] if p.get("ai")]
    if not ais:
        raise Refused("err.no_ai")
    if arg:
        key = arg if arg.startswith("ai:") else f"ai:{arg}"
        target = next((p for p in ais if p["key"] == key), None)
        if target is None:
            raise Refused("err.no_ai")
    else:
        target = ais[-1]
    state["players"].remove(target)
    return Effects(table=True)


def start(state: dict[str, Any], actor: Actor, ctx: Ctx) -> Effects:
    _owner(state, actor)
    _lobby(state)
    n = len(state["players"])
    if not 2 <= n <= MAX_PLAYERS:
        raise Refused("err.player_count", count=n)
    try:
        return start_round(state, ctx)
    except OptionError as e:
        raise Refused("err.option", reason=_reason(state, e)) from None


def close(state: dict[str, Any], actor: Actor) -> Effects:
    _owner(state, actor)
    state["phase"] = "closed"
    return Effects(table=True, toast=("toast.closed", {}))


def _reason(state: dict[str, Any], error: OptionError) -> str:
    from bot.views.render_common import option_reason  # views import table helpers too

    return option_reason(state.get("language") or "zh-Hans", error)
