"""A scripted transport for the delivery engine's tests: it records what it
sent and fails as told."""

from __future__ import annotations

from storage.delivery import OutboxRow, SentRef


class Script:
    """A transport that records what it sent and fails as told."""

    platform = "telegram"

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str]] = []  # (chat, key, text)
        self.failures: list[Exception] = []

    def is_group(self, chat_id: str) -> bool:
        return chat_id.startswith("-")

    async def deliver(self, row: OutboxRow) -> SentRef | None:
        if self.failures:
            raise self.failures.pop(0)
        self.sent.append((row.chat_id, row.key, row.payload["text"]))
        return SentRef("telegram", row.chat_id, row.key, str(len(self.sent)))
