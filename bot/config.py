"""Settings from the environment and ``.env`` (pydantic-settings).

Every setting is listed, with a comment, in ``.env.example``. Secrets
(tokens, the webhook's and the page's secrets) are SecretStr: they never
appear in reprs, and bot/logsafe.py masks them, and the database URL's
password, in every log line.

Every value is checked when the settings are read, before a command creates
anything: :func:`load_settings` turns a bad value into a
:class:`SettingsError` whose lines each name the setting, what was given
(never a secret) and the values allowed.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import timedelta
from functools import lru_cache
from typing import Annotated, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES

PRESETS = ("classic", "extended")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# The arranging time a room accepts (the owner's setting and ARRANGE_SECONDS).
MIN_ARRANGE_SECONDS = 15
MAX_ARRANGE_SECONDS = 900
DATABASE_SCHEMES = ("sqlite", "postgresql", "postgresql+psycopg")
# The solver's settings keep their THIRTEEN_ prefix in the environment.
SOLVER_ENV = {
    "solver_model_hands": "THIRTEEN_SOLVER_MODEL_HANDS",
    "solver_pool_hands": "THIRTEEN_SOLVER_POOL_HANDS",
    "solver_pool_hands_16": "THIRTEEN_SOLVER_POOL_HANDS_16",
    "solver_cache": "THIRTEEN_SOLVER_CACHE",
}
SOLVER_MODEL_HANDS = SOLVER_ENV["solver_model_hands"]
SECRET_FIELDS = (
    "telegram_token",
    "telegram_webhook_secret",
    "discord_token",
    "discord_client_secret",
    "webapp_secret",
)
# The shapes of the tokens, checked before anything is created: a bot's number,
# a colon and its key (BotFather); three dot-separated parts (Discord).
TOKEN_SHAPES = {
    "telegram_token": (
        re.compile(r"[0-9]{1,20}:[A-Za-z0-9_-]{1,200}"),
        "must be the token @BotFather gave, the bot's number, a colon and letters, digits, "
        "_ and - (as 123456789:AAH…), with nothing before or after it",
    ),
    "discord_token": (
        re.compile(r"[A-Za-z0-9_-]{10,200}\.[A-Za-z0-9_-]{2,200}\.[A-Za-z0-9_-]{10,200}"),
        "must be the bot's token from the Discord Developer Portal (Bot, Reset Token): three "
        "parts of letters, digits, _ and - joined by dots, with nothing before or after it",
    ),
}
# The settings that are whole numbers: (lowest, highest, the values allowed in words).
WHOLE_NUMBERS = {
    "telegram_webhook_port": (1, 65535, "a port number from 1 to 65535"),
    "discord_guild_id": (1, 2**64 - 1, "a server id (a whole number of up to 20 digits), or empty"),
    "discord_shard_count": (1, 10_000, "a number of shards from 1 to 10000, or empty (no shards)"),
    "arrange_seconds": (
        MIN_ARRANGE_SECONDS,
        MAX_ARRANGE_SECONDS,
        f"a whole number of seconds from {MIN_ARRANGE_SECONDS} to {MAX_ARRANGE_SECONDS}",
    ),
    "reminder_seconds": (
        0,
        MAX_ARRANGE_SECONDS,
        f"a whole number of seconds from 0 (no reminder) to {MAX_ARRANGE_SECONDS}",
    ),
    "metrics_port": (1, 65535, "a port number from 1 to 65535, or empty (off)"),
    "webapp_port": (1, 65535, "a port number from 1 to 65535"),
    "solver_model_hands": (50, 100_000, "a whole number of hands from 50 to 100000"),
    "solver_pool_hands": (50, 100_000, "a whole number of hands from 50 to 100000"),
    "solver_pool_hands_16": (20, 100_000, "a whole number of hands from 20 to 100000"),
}
# Delivery's rates and timings: (lowest, highest, the values allowed in words).
NUMBERS = {
    "delivery_group_per_minute": (0, 1000, "messages a minute per group, 0 (no limit) to 1000"),
    "delivery_private_per_second": (0, 100, "messages a second per private chat, 0 to 100"),
    "delivery_overall_per_second": (0, 1000, "messages a second in all, 0 (no limit) to 1000"),
    "delivery_poll_seconds": (0.05, 60, "seconds between looks for due messages, 0.05 to 60"),
    "delivery_retention_days": (0, 3650, "days to keep old delivery records, 0 (forever) to 3650"),
}
# The settings that name one of a few values (any letter case; stored as written here).
ONE_OF = {"default_language": LANGUAGES, "default_preset": PRESETS, "log_level": LOG_LEVELS}
FLAGS = {
    "true": True,
    "on": True,
    "yes": True,
    "1": True,
    "false": False,
    "off": False,
    "no": False,
    "0": False,
}


class SettingsError(ValueError):
    """Settings that cannot be used; ``str(e)`` is one line per bad setting."""


def check_database_url(url: str) -> str:
    """A database URL the storage can open (by its scheme); ValueError if not."""
    text = url.strip()
    scheme = text.partition("://")[0].lower() if "://" in text else ""
    if scheme not in DATABASE_SCHEMES:
        raise ValueError(
            "must be sqlite:///<file> or postgresql+psycopg://<user>:<password>@<host>/<db>"
        )
    if scheme == "sqlite" and text[len("sqlite://") :].lstrip("/") in ("", ":memory:"):
        # SQLite without a file is a database in memory, gone at exit.
        raise ValueError("sqlite:/// needs a file name, e.g. sqlite:///thirteen.db")
    return text


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        env_ignore_empty=True,
        populate_by_name=True,
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
    # shards (docs/deploy.md): how many in all, and which of them this process serves
    discord_shard_count: int | None = None
    discord_shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None

    # delivery (docs/delivery.md): the platform's flood limits, and how often
    # each process looks for messages left by others, a crash or a retry
    delivery_group_per_minute: float = 20
    delivery_private_per_second: float = 1
    delivery_overall_per_second: float = 30
    delivery_poll_seconds: float = 1.0
    # failed deliveries and the message ids of closed rooms are deleted after
    # this many days (0: kept forever); nothing undelivered, nothing of an open room
    delivery_retention_days: float = 7

    # health and Prometheus metrics over HTTP (/healthz, /metrics); off unless a port is set
    metrics_port: int | None = None
    metrics_listen: str = "127.0.0.1"

    # the arranging page (a Telegram Mini App; a browser page from Discord):
    # on when WEBAPP_URL (the public HTTPS base behind the reverse proxy) is set
    webapp_url: str | None = None
    webapp_listen: str = "127.0.0.1"
    webapp_port: int = 8080
    # signs the page's passes; every process of one deployment needs the same
    # (unset: derived from the bot tokens, which they share already)
    webapp_secret: SecretStr | None = None
    # the Mini App's short name from BotFather's /newapp: the group table links to it
    telegram_webapp_name: str | None = None
    # The arranging page as a Discord Activity (docs/discord.md): the
    # application's id and OAuth2 secret (Developer Portal, OAuth2), and
    # Discord's API (tests point it at a local fake). DISCORD_ACTIVITY last:
    # it is checked against the others.
    discord_client_id: str | None = None
    discord_client_secret: SecretStr | None = None
    discord_api_url: str = "https://discord.com/api/v10"
    discord_activity: bool = False

    # table defaults
    default_language: str = DEFAULT_LANGUAGE
    default_preset: str = "classic"
    arrange_seconds: int = 120
    reminder_seconds: int = 30  # remind this long before the deadline
    showdown_step_seconds: float = 1.5  # pause between revealed lanes
    pictures: bool = True  # card pictures with the hand, showdown and settlement; off = text only
    # the zone whose clock times a Telegram room shows its deadlines in (IANA name)
    timezone: str = "Asia/Shanghai"

    # solver: random hands dealt to build a lane model; arranged opponents per deck
    # setting (13 cards / 多三张); where built pools are kept ("" = user cache, "off")
    solver_model_hands: int = Field(default=1000, validation_alias=SOLVER_ENV["solver_model_hands"])
    solver_pool_hands: int = Field(default=6000, validation_alias=SOLVER_ENV["solver_pool_hands"])
    solver_pool_hands_16: int = Field(
        default=600, validation_alias=SOLVER_ENV["solver_pool_hands_16"]
    )
    solver_cache: str = Field(default="", validation_alias=SOLVER_ENV["solver_cache"])

    log_level: str = "INFO"

    @property
    def delivery_retention(self) -> timedelta | None:
        """How long old delivery records are kept (None: forever)."""
        days = self.delivery_retention_days
        return timedelta(days=days) if days > 0 else None

    @field_validator("database_url", mode="before")
    @classmethod
    def _database_url(cls, v: Any) -> str:
        return check_database_url(str(v))

    @field_validator("telegram_base_url", "telegram_base_file_url", "telegram_webhook_url")
    @classmethod
    def _http_url(cls, v: str | None) -> str | None:
        if v is not None and not v.startswith(("https://", "http://")):
            raise ValueError("must be an http:// or https:// URL")
        return v

    @field_validator("webapp_url")
    @classmethod
    def _webapp_url(cls, v: str | None) -> str | None:
        if v is None:
            return None
        text = v.strip().rstrip("/")
        # Telegram opens Mini Apps over HTTPS only; plain http is for a local test.
        local = re.fullmatch(r"http://(127\.0\.0\.1|localhost)(:\d+)?(/\S*)?", text)
        if not (re.fullmatch(r"https://[^\s/]+(/\S*)?", text) or local):
            raise ValueError(
                "must be the page's public https:// address (http:// only for 127.0.0.1)"
            )
        return text

    @field_validator("telegram_webapp_name")
    @classmethod
    def _webapp_name(cls, v: str | None) -> str | None:
        if v is not None and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", v.strip()):
            raise ValueError(
                "must be the Mini App's short name from BotFather (3-30 of A-Z a-z 0-9 _)"
            )
        return v.strip() if v is not None else None

    def webapp_key(self) -> bytes:
        """The key the page's passes are signed with."""
        if self.webapp_secret is not None:
            return self.webapp_secret.get_secret_value().encode()
        tokens = [t.get_secret_value() for t in (self.telegram_token, self.discord_token) if t]
        material = "\n".join(tokens) or "no token"
        return hmac.new(b"thirteen-water web passes", material.encode(), hashlib.sha256).digest()

    @field_validator(*TOKEN_SHAPES)
    @classmethod
    def _token_shape(cls, v: SecretStr | None, info: ValidationInfo) -> SecretStr | None:
        shape, what = TOKEN_SHAPES[str(info.field_name)]
        if v is not None and not shape.fullmatch(v.get_secret_value()):
            raise ValueError(what)
        return v

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _webhook_secret(cls, v: SecretStr | None) -> SecretStr | None:
        # What Telegram's setWebhook takes as secret_token; anything else it
        # refuses only when the bot registers the webhook.
        if v is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", v.get_secret_value()):
            raise ValueError(
                "must be 1 to 256 characters A-Z, a-z, 0-9, _ and - "
                "(make one: python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
            )
        return v

    @field_validator(*WHOLE_NUMBERS, mode="before")
    @classmethod
    def _whole_number(cls, v: Any, info: ValidationInfo) -> int | None:
        if v is None and info.field_name in (
            "discord_guild_id",
            "metrics_port",
            "discord_shard_count",
        ):
            return None
        low, high, what = WHOLE_NUMBERS[str(info.field_name)]
        text = str(v).strip()
        # ASCII digits only: int() would also take "１２０" and "٣".
        if not (text.isascii() and text.lstrip("-").isdigit() and len(text) <= 21):
            raise ValueError(f"must be {what}")
        if not low <= int(text) <= high:
            raise ValueError(f"must be {what}")
        return int(text)

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_ids(cls, v: Any, info: ValidationInfo) -> tuple[int, ...] | None:
        if v is None:
            return None
        count = info.data.get("discord_shard_count")
        if not count:
            raise ValueError("needs DISCORD_SHARD_COUNT (the number of shards in all)")
        parts = [p.strip() for p in v.split(",")] if isinstance(v, str) else [str(p) for p in v]
        what = f"must be shard numbers from 0 to {count - 1}, comma-separated, each once"
        if not all(p.isascii() and p.isdigit() for p in parts) or not parts:
            raise ValueError(what)
        ids = tuple(int(p) for p in parts)
        if len(set(ids)) != len(ids) or any(i >= count for i in ids):
            raise ValueError(what)
        return ids

    @field_validator(*ONE_OF, mode="before")
    @classmethod
    def _one_of(cls, v: Any, info: ValidationInfo) -> str:
        allowed = ONE_OF[str(info.field_name)]
        for value in allowed:
            if str(v).strip().lower() == value.lower():
                return value
        raise ValueError(f"must be one of {', '.join(allowed)}")

    @field_validator("showdown_step_seconds", mode="before")
    @classmethod
    def _step(cls, v: Any) -> float:
        try:
            step = float(str(v).strip())
        except ValueError:
            step = -1.0
        if not 0 <= step <= 60:  # also refuses nan
            raise ValueError("must be a number of seconds from 0 to 60")
        return step

    @field_validator("timezone", mode="before")
    @classmethod
    def _timezone(cls, v: Any) -> str:
        text = str(v).strip()
        try:
            # A name only: ZoneInfo would also open a path such as "../x".
            if not text or text.startswith(("/", ".")) or ".." in text:
                raise ValueError(text)
            ZoneInfo(text)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                "must be a time zone name such as Asia/Shanghai, Asia/Taipei, Europe/London or UTC"
            ) from None
        return text

    @field_validator(*NUMBERS, mode="before")
    @classmethod
    def _number(cls, v: Any, info: ValidationInfo) -> float:
        low, high, what = NUMBERS[str(info.field_name)]
        try:
            value = float(str(v).strip())
        except ValueError:
            value = float("nan")
        if not low <= value <= high:  # also refuses nan
            raise ValueError(f"must be {what}")
        return value

    @field_validator("discord_client_id")
    @classmethod
    def _client_id(cls, v: str | None) -> str | None:
        if v is not None and not re.fullmatch(r"[0-9]{5,20}", v.strip()):
            raise ValueError(
                "must be the application's id (Developer Portal, General Information: digits)"
            )
        return v.strip() if v is not None else None

    @field_validator("discord_api_url")
    @classmethod
    def _api_url(cls, v: str) -> str:
        if not v.startswith(("https://", "http://")):
            raise ValueError("must be an http:// or https:// URL")
        return v.rstrip("/")

    @field_validator("discord_activity")
    @classmethod
    def _activity_needs(cls, v: bool, info: ValidationInfo) -> bool:
        """On only with what it runs on: never a silent fall back to the link."""
        if not v:
            return v
        missing = [
            name.upper()
            for name in ("discord_token", "discord_client_id", "discord_client_secret")
            if info.data.get(name) is None
        ]
        if info.data.get("webapp_url") is None:
            missing.append("WEBAPP_URL")
        if missing:
            raise ValueError(f"the Discord Activity needs {', '.join(missing)} (docs/discord.md)")
        return v

    @field_validator("pictures", "discord_activity", mode="before")
    @classmethod
    def _flag(cls, v: Any) -> bool:
        if isinstance(v, bool):
            return v
        flag = FLAGS.get(str(v).strip().lower())
        if flag is None:
            raise ValueError("must be true or false")
        return flag


def _shown(field: str, value: Any) -> str:
    """What was given, as the error line repeats it: never a secret, and of a
    database URL only its scheme (the rest may hold a password)."""
    if field in SECRET_FIELDS:
        return "(hidden)"
    text = str(value)
    if field == "database_url":
        return text.partition("://")[0] + "://…" if "://" in text else repr(text[:40])
    return repr(text if len(text) <= 40 else text[:39] + "…")


def explain(error: ValidationError) -> str:
    """One line per bad setting: its name, what was given and what is allowed."""
    lines = []
    for e in error.errors():
        field = str(e["loc"][0]) if e["loc"] else "?"
        name = SOLVER_ENV.get(field, field.upper())
        reason = e.get("ctx", {}).get("error") or e["msg"]
        lines.append(f"{name}={_shown(field, e.get('input'))}: {reason}")
    return "\n".join(lines)


def load_settings(**overrides: Any) -> Settings:
    """Read and check the settings; :class:`SettingsError` when one is bad."""
    try:
        return Settings(**overrides)
    except ValidationError as e:
        raise SettingsError(explain(e)) from None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return load_settings()
