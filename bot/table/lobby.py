"""Room transitions outside arranging: a new room, join, leave, options,
AI seats, removing a player, language, close. Owner-only actions and who may
act on a room at all (members of its chat) are checked here."""

from __future__ import annotations

from typing import Any

from bot.core.room import Room, Seat
from bot.core.state import Phase
from bot.i18n import normalize_language
from bot.i18n.languages import DEFAULT_LANGUAGE, is_language
from bot.rules.options import OptionError, Preset
from bot.views import render
from bot.views.deadline import DEFAULT_TIMEZONE
from bot.views.render_common import language_choices, option_name, option_reason, option_value

from .actions import Action, Actor, Verb
from .effects import Effects
from .options import apply_option, check_possible, default_options
from .refused import Refused
from .round import Ctx, escape, fix_owner, start_round

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
) -> Room:
    p = (preset or "classic").strip().lower()
    try:
        p = Preset(p).value
    except ValueError:
        raise Refused("err.bad_preset", preset=(preset or "")[:24]) from None
    name = actor.name or actor.user_id
    return Room(
        platform=platform,
        chat_id=chat_id,
        owner=actor.key,
        phase=Phase.LOBBY,
        language=language,
        timezone=timezone,  # deadlines on Telegram are shown as clock times here
        preset=p,
        options=default_options(arrange_seconds),
        players=[Seat(actor.key, name)],
        names={actor.key: name},
    )


def _owner(room: Room, actor: Actor) -> None:
    if actor.key != room.owner:
        raise Refused("err.owner_only")


def _lobby(room: Room) -> None:
    if room.phase != Phase.LOBBY:
        raise Refused("err.round_running")


def check_chat(room: Room, action: Action) -> None:
    """Seats only for members: an action must come from the room's own chat.

    ``action.chat_id`` is the chat the update came from; an adapter leaves it
    empty for a private chat (a DM), where it cannot vouch for membership.
    There only someone already at the table (seated, dealt in, or the owner)
    may act, and joining is refused: the adapter checks membership of the
    room's group first (Telegram getChatMember) and then names that chat.
    """
    if action.chat_id:
        if action.chat_id != room.chat_id or action.actor.platform != room.platform:
            raise Refused("err.other_chat")
        return
    if action.verb is Verb.JOIN:
        raise Refused("err.join_in_group")
    key = action.actor.key
    dealt = room.round.hands if room.round else {}
    if key != room.owner and room.seat(key) is None and key not in dealt:
        raise Refused("err.not_player")


def _seats_fit(room: Room) -> None:
    """The table's options must still be playable with one more seat taken."""
    try:
        check_possible(room, len(room.players))
    except OptionError as e:
        raise Refused("err.option", reason=_reason(room, e)) from None


def join(room: Room, actor: Actor) -> Effects:
    _lobby(room)
    if room.seat(actor.key):
        raise Refused("err.already_joined")
    if len(room.players) >= MAX_PLAYERS:
        raise Refused("err.room_full")
    name = actor.name or actor.user_id
    room.players.append(Seat(actor.key, name))
    room.names[actor.key] = name
    _seats_fit(room)
    # Joined again from the last round's result: that result is redrawn
    # without its "Join the next round", which would now only be refused.
    rnd = room.round
    again = [actor.key] if rnd is not None and actor.key in rnd.hands else []
    return Effects(table=True, toast=("toast.joined", {}), hands=again)


def leave(room: Room, actor: Actor, ctx: Ctx) -> Effects:
    if room.seat(actor.key) is None:
        raise Refused("err.not_player")
    rnd = room.round
    if room.phase == Phase.ARRANGING and rnd and actor.key in rnd.hands:
        return escape(room, actor.key, ctx)
    if room.phase == Phase.SHOWDOWN and rnd and actor.key in rnd.hands:
        # The result is fixed already; the seat empties when the round is paid.
        if actor.key not in rnd.leaving:
            rnd.leaving.append(actor.key)
        return Effects(table=True, toast=("toast.left", {}))
    room.players = [p for p in room.players if p.key != actor.key]
    # The owner passes to a human still seated; with only AI seats left the
    # owner stays (and may watch them play); an empty room closes.
    fix_owner(room)
    return Effects(table=True, toast=("toast.left", {}))


def set_option(room: Room, actor: Actor, arg: str | None) -> Effects:
    _owner(room, actor)
    _lobby(room)
    try:
        name, value = apply_option(room, arg, len(room.players))
    except OptionError as e:
        raise Refused("err.option", reason=_reason(room, e)) from None
    return Effects(table=True, toast=_option_toast(room, name, value))


def _option_toast(room: Room, name: str, value: Any) -> tuple[str, dict[str, Any]]:
    """ "鬼牌：1", "Arranging time: 60 s": the option's name and value in
    the room's (possibly just changed) language."""
    lang = room.language
    return (
        "toast.option_set",
        {"name": option_name(lang, name), "value": option_value(lang, name, value)},
    )


def set_language(room: Room, actor: Actor, arg: str | None) -> Effects:
    _owner(room, actor)
    if not arg or not is_language(arg):
        raise Refused(
            "err.bad_language", value=(arg or "")[:24], choices=language_choices(room.language)
        )
    room.language = normalize_language(arg)
    return Effects(table=True, toast=_option_toast(room, "language", room.language))


def add_ai(room: Room, actor: Actor, arg: str | None, default: str = "normal") -> Effects:
    _owner(room, actor)
    _lobby(room)
    level = (arg or default).lower()
    if level not in AI_LEVELS:
        raise Refused("err.bad_ai_level", value=level[:24])
    if len(room.players) >= MAX_PLAYERS:
        raise Refused("err.room_full")
    room.ai_seq += 1
    key = f"ai:{room.ai_seq}"
    room.players.append(Seat(key, f"AI-{room.ai_seq}", level))
    room.names[key] = f"AI-{room.ai_seq}"
    _seats_fit(room)
    return Effects(table=True)


def remove_ai(room: Room, actor: Actor, arg: str | None) -> Effects:
    _owner(room, actor)
    _lobby(room)
    ais = [p for p in room.players if p.ai]
    if not ais:
        raise Refused("err.no_ai")
    if arg:
        key = arg if arg.startswith("ai:") else f"ai:{arg}"
        target = next((p for p in ais if p.key == key), None)
        if target is None:
            raise Refused("err.no_ai")
    else:
        target = ais[-1]
    room.players.remove(target)
    return Effects(table=True)


def remove_player(room: Room, actor: Actor, arg: str | None) -> Effects:
    """The owner takes a seated person off the table before the deal (their
    points so far stay on the room's totals)."""
    _owner(room, actor)
    _lobby(room)
    key = f"{room.platform}:{arg}"
    target = room.seat(key) if arg else None
    if target is None or target.ai:
        raise Refused("err.no_such_player")
    if key == room.owner:
        raise Refused("err.remove_owner")
    room.players.remove(target)
    fx = Effects(table=True, toast=("toast.removed", {"name": target.name}))
    fx.notices.append(("notice.removed", {"name": target.name}))
    return fx


def start(room: Room, actor: Actor, ctx: Ctx) -> Effects:
    _owner(room, actor)
    _lobby(room)
    n = len(room.players)
    if not 2 <= n <= MAX_PLAYERS:
        raise Refused("err.player_count", count=n)
    try:
        return start_round(room, ctx)
    except OptionError as e:
        raise Refused("err.option", reason=_reason(room, e)) from None


CONFIRM_CLOSE = "yes"


def close(room: Room, actor: Actor, arg: str | None = None) -> Effects:
    """Close the room. While a round is being played, only after the owner
    confirms (``arg`` "yes"): the round is void and its hands lose their
    buttons; the closing post says what became of it and the final totals."""
    _owner(room, actor)
    rnd = room.round
    live = room.live and rnd is not None
    if live and arg != CONFIRM_CLOSE:
        view = render.close_confirm_view(room, actor)
        return Effects(toast=("toast.confirm_close", {}), views=[view])
    room.phase = Phase.CLOSED
    hands = [k for k in rnd.hands if not k.startswith("ai:")] if live and rnd else []
    return Effects(table=True, hands=hands, toast=("toast.closed", {}))


def _reason(room: Room, error: OptionError) -> str:
    return option_reason(room.language or DEFAULT_LANGUAGE, error)
