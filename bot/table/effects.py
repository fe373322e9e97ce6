"""What a state transition asks the manager to do after it is stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.presses import Confirmed, Declared
from bot.views.model import View
from storage.api import RoundRecord, SettlementRecord


@dataclass
class Effects:
    toast: tuple[str, dict[str, Any]] | None = None  # (catalog key, params) for the actor
    table: bool = False  # re-render the table message
    table_fresh: bool = False  # ... as a new message
    hands: list[str] = field(default_factory=list)  # player keys whose hand views to send
    settlement: bool = False  # post the settlement view of the current round
    final: bool = False  # the round ended a match: post the 大结算
    notices: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # group notices
    mentions: list[str] = field(default_factory=list)  # player keys the notices mention
    views: list[View] = field(default_factory=list)  # views rendered already
    round_record: RoundRecord | None = None
    settlement_record: SettlementRecord | None = None
    pressed: Confirmed | Declared | None = None  # what a confirm or a declaration did
