"""The renderers the table manager calls, in one namespace."""

from __future__ import annotations

from typing import Any

from .render_common import command
from .render_hand import hand_view, reason_text
from .render_info import (
    close_confirm_view,
    help_view,
    leaderboard_view,
    notice_view,
    rules_view,
    settings_view,
    stats_view,
    verify_view,
)
from .render_settle import settlement_lines, settlement_view
from .render_table import showdown_lines, table_view


def reason(lang: str, key: str, params: dict[str, Any]) -> str:
    """A refusal's short localized reason."""
    return reason_text(lang, key, params)


__all__ = [
    "close_confirm_view",
    "command",
    "hand_view",
    "help_view",
    "leaderboard_view",
    "notice_view",
    "reason",
    "rules_view",
    "settings_view",
    "settlement_lines",
    "settlement_view",
    "showdown_lines",
    "stats_view",
    "table_view",
    "verify_view",
]
