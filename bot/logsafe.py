"""Secrets never reach a log, by construction.

One :class:`Redact` filter sits on every handler of the process's logging
(:func:`install`): before a record is written it renders the message, the
exception's traceback and the stack, and masks each configured secret
wherever it appears (the bot tokens, the webhook's and the page's secrets,
the database's password), as written and as it appears inside a URL. A
library that puts a token into an exception's text (python-telegram-bot's
``InvalidToken``, an httpx request URL at DEBUG) is masked like any other
line, so no call site has to remember. Uncaught exceptions (the main thread's
and other threads') go through the same logging instead of straight to
stderr.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterable
from types import TracebackType
from urllib.parse import quote, unquote, urlsplit

from bot.config import SECRET_FIELDS, Settings

MASK = "***"
# Shorter values are not masked: they would blank ordinary words of every
# line (a 3-letter password is the weak spot, not the log).
MIN_SECRET = 4
log = logging.getLogger("thirteen")


def _database_password(url: str) -> str | None:
    try:
        password = urlsplit(url).password
    except ValueError:  # a malformed port: the URL is refused elsewhere
        return None
    return unquote(password) if password else None


def secrets_of(settings: Settings) -> tuple[str, ...]:
    """Every text to mask, longest first (so a secret inside another is
    masked as the longer one): each secret setting, the secret half of a
    Telegram token (after the bot's number, which is public), the database
    URL's password; each also percent-encoded, as it is inside a URL."""
    values: list[str] = []
    for field in SECRET_FIELDS:
        secret = getattr(settings, field)
        if secret is not None:
            values.append(secret.get_secret_value())
    if settings.telegram_token is not None:
        values.append(settings.telegram_token.get_secret_value().partition(":")[2])
    password = _database_password(settings.database_url)
    if password:
        values.append(password)
    found: set[str] = set()
    for value in values:
        for form in (value, quote(value, safe=""), quote(value)):
            if len(form) >= MIN_SECRET:
                found.add(form)
    return tuple(sorted(found, key=lambda s: (-len(s), s)))


class Redact(logging.Filter):
    """Masks the secrets in a record: its message (arguments rendered first),
    its traceback and its stack. The traceback is rendered here and the
    exception dropped from the record, so no formatter can render it again
    unmasked."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = tuple(secrets)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit: logging reports it, masked
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.exc_info = None
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def _log_uncaught(
    kind: type[BaseException], error: BaseException, trace: TracebackType | None
) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error, trace)
        return
    log.critical("uncaught exception", exc_info=(kind, error, trace))


def _log_thread_uncaught(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is not None:
        name = args.thread.name if args.thread is not None else "?"
        log.critical(
            "uncaught exception in thread %s",
            name,
            exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
        )


def install(settings: Settings) -> Redact:
    """Put one :class:`Redact` of ``settings``' secrets on every handler
    (call after the handlers are set up), and route uncaught exceptions and
    warnings through logging."""
    redact = Redact(secrets_of(settings))
    loggers = [logging.getLogger()]
    loggers += [
        logger
        for logger in logging.Logger.manager.loggerDict.values()
        if isinstance(logger, logging.Logger)
    ]
    for logger in loggers:
        for handler in logger.handlers:
            for old in [f for f in handler.filters if isinstance(f, Redact)]:
                handler.removeFilter(old)
            handler.addFilter(redact)
    sys.excepthook = _log_uncaught
    threading.excepthook = _log_thread_uncaught
    logging.captureWarnings(True)
    return redact
