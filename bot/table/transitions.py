"""What each verb that changes a room does to it: one transition per verb,
found by the verb (``TRANSITIONS``), pure functions on the typed room
(lobby.py, arranging.py). Read-only verbs have none (info.py and
history.py answer them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from bot.core.room import Room
from bot.core.state import Phase
from bot.core.verbs import VERBS, Verb

from . import arranging, lobby
from .actions import Action
from .effects import Effects
from .refused import Refused
from .round import Ctx

Transition = Callable[[Room, Action, Ctx], Effects]


def _press(state: Room, action: Action, ctx: Ctx) -> Effects:
    return arranging.press(state, action.actor.key, action.verb, action.arg, ctx)


TRANSITIONS: Mapping[Verb, Transition] = MappingProxyType(
    {
        Verb.JOIN: lambda state, a, ctx: lobby.join(state, a.actor),
        Verb.LEAVE: lambda state, a, ctx: lobby.leave(state, a.actor, ctx),
        Verb.START: lambda state, a, ctx: lobby.start(state, a.actor, ctx),
        Verb.SET_OPTION: lambda state, a, ctx: lobby.set_option(state, a.actor, a.arg),
        Verb.ADD_AI: lambda state, a, ctx: lobby.add_ai(state, a.actor, a.arg, ctx.strength),
        Verb.REMOVE_AI: lambda state, a, ctx: lobby.remove_ai(state, a.actor, a.arg),
        Verb.REMOVE_PLAYER: lambda state, a, ctx: lobby.remove_player(state, a.actor, a.arg),
        Verb.LANGUAGE: lambda state, a, ctx: lobby.set_language(state, a.actor, a.arg),
        Verb.CANCEL: lambda state, a, ctx: lobby.close(state, a.actor, a.arg),
        **dict.fromkeys(arranging.PRESSES, _press),
    }
)


def may_solve(state: Room, action: Action) -> bool:
    """Whether applying ``action`` to ``state`` may run the solver's search
    (the manager then applies it in a worker thread): a suggestion always,
    a start only with AI seats to arrange, a leave only of a hand being
    arranged (it is auto-arranged). A thread for every start would make
    each wait for the others' deals in the pool."""
    verb = action.verb
    if not VERBS[verb].solver:
        return False
    if verb == Verb.START:
        return any(p.ai for p in state.players)
    if verb == Verb.LEAVE:
        rnd = state.round
        return state.phase == Phase.ARRANGING and rnd is not None and action.actor.key in rnd.hands
    return True


def apply(state: Room, action: Action, ctx: Ctx) -> Effects:
    """Apply ``action`` to ``state`` (a copy: a refusal leaves it half-changed)."""
    transition = TRANSITIONS.get(action.verb)
    if transition is None:
        raise Refused("err.unknown")
    return transition(state, action, ctx)
