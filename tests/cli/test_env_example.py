""".env.example lists every setting, and nothing that is not one."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Settings

EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"


def listed() -> set[str]:
    text = EXAMPLE.read_text(encoding="utf-8")
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", text, re.M))


def settings() -> set[str]:
    """Each setting's environment name (its alias where it has one)."""
    return {
        str(field.validation_alias or name).upper() for name, field in Settings.model_fields.items()
    }


def test_every_setting_is_in_the_example() -> None:
    assert settings() - listed() == set()


def test_the_example_names_only_settings() -> None:
    assert listed() - settings() == set()
