"""Room transitions outside arranging: a new room, join, leave, options,
AI seats, removing a player, language, close. Owner-only actions and who may
act on a room at all (members of its chat) are checked here."""

from __future__ import annotations

from typing import Any

from bot.core.room import Room
from bot.core.state import LIVE_PHASES, Phase
from bot.rules.options import OptionError, Preset
from bot.views import render
from bot.views.deadline import DEFAULT_TIMEZONE
from bot.views.i18n import normalize_language
from bot.views.render_common import option_name, option_reason, option_value

from .actions import Action, Actor, Verb
from .effects import Effects
from .options import apply_option, check_possible, default_options
from .refused import Refused
from .round import Ctx, escape, fix_owner, player, start_round
from .state import STATE_VERSION

MAX_PLAYERS = 5
AI_LEVELS = ("easy", "normal", "strong")


def new_state(
    actor: Actor,
    platform: str,
    chat_id: str,
    preset: str | None,
    language: str,
    arrange_seconds: int,
    timezone: str = DEFAULT_TIMEZONE,
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
        "phase": Phase.LOBBY,
        "round_no": 0,
        "language": language,
        "timezone": timezone,  # deadlines on Telegram are shown as clock times here
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
    if state["phase"] != Phase.LOBBY:
        raise Refused("err.round_running")


def check_chat(state: dict[str, Any], action: Action) -> None:
    """Seats only for members: an action must come from the room's own chat.

    ``action.chat_id`` is the chat the update came from; an adapter leaves it
    empty for a private chat (a DM), where it cannot vouch for membership.
    There only someone already at the table (seated, dealt in, or the owner)
    may act, and joining is refused: the adapter checks membership of the
    room's group first (Telegram getChatMember) and then names that chat.
    """
    if action.chat_id:
        if action.chat_id != state["chat_id"] or action.actor.platform != state["platform"]:
            raise Refused("err.other_chat")
        return
    if action.verb is Verb.JOIN:
        raise Refused("err.join_in_group")
    key = action.actor.key
    dealt = (state.get("round") or {}).get("hands", {})
    if key != state["owner"] and player(state, key) is None and key not in dealt:
        raise Refused("err.not_player")


def _seats_fit(state: dict[str, Any]) -> None:
    """The table's options must still be playable with one more seat taken."""
    try:
        check_possible(state, len(state["players"]))
    except OptionError as e:
        raise Refused("err.option", reason=_reason(state, e)) from None


def join(state: dict[str, Any], actor: Actor) -> Effects:
    _lobby(state)
    if player(state, actor.key):
        raise Refused("err.already_joined")
    if len(state["players"]) >= MAX_PLAYERS:
        raise Refused("err.room_full")
    name = actor.name or actor.user_id
    state["players"].append({"key": actor.key, "name": name, "ai": None})
    state["names"][actor.key] = name
    _seats_fit(state)
    return Effects(table=True, toast=("toast.joined", {}))


def leave(state: dict[str, Any], actor: Actor, ctx: Ctx) -> Effects:
    if player(state, actor.key) is None:
        raise Refused("err.not_player")
    rnd = state.get("round")
    if state["phase"] == Phase.ARRANGING and rnd and actor.key in rnd["hands"]:
        return escape(state, actor.key, ctx)
    if state["phase"] == Phase.SHOWDOWN and rnd and actor.key in rnd["hands"]:
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
    return Effects(table=True, toast=_option_toast(state, name, value))


def _option_toast(state: dict[str, Any], name: str, value: Any) -> tuple[str, dict[str, Any]]:
    """ "鬼牌：1", "Arranging time: 60 s": the option's name and value in
    the room's (possibly just changed) language."""
    lang = state["language"]
    return (
        "toast.option_set",
        {"name": option_name(lang, name), "value": option_value(lang, name, value)},
    )


def set_language(state: dict[str, Any], actor: Actor, arg: str | None) -> Effects:
    _owner(state, actor)
    if not arg or not arg.lower().startswith(("en", "zh")):
        raise Refused("err.bad_language", value=(arg or "")[:24])
    state["language"] = normalize_language(arg)
    return Effects(table=True, toast=_option_toast(state, "language", state["language"]))


def add_ai(
    state: dict[str, Any], actor: Actor, arg: str | None, default: str = "normal"
) -> Effects:
    _owner(state, actor)
    _lobby(state)
    level = (arg or default).lower()
    if level not in AI_LEVELS:
        raise Refused("err.bad_ai_level", value=level[:24])
    if len(state["players"]) >= MAX_PLAYERS:
        raise Refused("err.room_full")
    state["ai_seq"] += 1
    key = f"ai:{state['ai_seq']}"
    state["players"].append({"key": key, "name": f"AI-{state['ai_seq']}", "ai": level})
    state["names"][key] = f"AI-{state['ai_seq']}"
    _seats_fit(state)
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


def remove_player(state: dict[str, Any], actor: Actor, arg: str | None) -> Effects:
    """The owner takes a seated person off the table before the deal (their
    points so far stay on the room's totals)."""
    _owner(state, actor)
    _lobby(state)
    key = f"{state['platform']}:{arg}"
    target = player(state, key) if arg else None
    if target is None or target.get("ai"):
        raise Refused("err.no_such_player")
    if key == state["owner"]:
        raise Refused("err.remove_owner")
    state["players"].remove(target)
    fx = Effects(table=True, toast=("toast.removed", {"name": target["name"]}))
    fx.notices.append(("notice.removed", {"name": target["name"]}))
    return fx


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


CONFIRM_CLOSE = "yes"


def close(state: dict[str, Any], actor: Actor, arg: str | None = None) -> Effects:
    """Close the room. While a round is being played, only after the owner
    confirms (``arg`` "yes"): the round is void and its hands lose their
    buttons; the closing post says what became of it and the final totals."""
    _owner(state, actor)
    rnd = state.get("round")
    live = state["phase"] in LIVE_PHASES and rnd is not None
    if live and arg != CONFIRM_CLOSE:
        view = render.close_confirm_view(Room.from_json(state), actor)
        return Effects(toast=("toast.confirm_close", {}), views=[view])
    state["phase"] = Phase.CLOSED
    hands = [k for k in rnd["hands"] if not k.startswith("ai:")] if live and rnd else []
    return Effects(table=True, hands=hands, toast=("toast.closed", {}))


def _reason(state: dict[str, Any], error: OptionError) -> str:
    return option_reason(state.get("language") or "zh-Hans", error)
