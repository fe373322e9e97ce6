"""Settings from the environment and ``.env`` (pydantic-settings).

Every setting is listed, with a comment, in ``.env.example``. Secrets
(tokens, database passwords) are SecretStr: they never appear in logs or
reprs.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    # storage
    database_url: str = "sqlite:///thirteen.db"

    # Telegram
    telegram_token: SecretStr | None = None
    telegram_base_url: str = "https://api.telegram.org/bot"
    telegram_base_file_url: str = "https://api.telegram.org/file/bot"
    telegram_webhook_url: str | None = None  # set to use webhook mode instead of polling
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: SecretStr | None = None

    # Discord
    discord_token: SecretStr | None = None
    discord_guild_id: int | None = None  # sync commands to one guild at once (development)

    # table defaults
    default_language: str = "zh-Hans"
    default_preset: str = "classic"
    arrange_seconds: int = 120
    reminder_seconds: int = 30  # remind this long before the deadline
    showdown_step_seconds: float = 1.5  # pause between revealed lanes
    pictures: bool = True  # card pictures with the hand, showdown and settlement; off = text only

    log_level: str = "INFO"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
