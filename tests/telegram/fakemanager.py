"""Kept only for tests/telegram/test_webhook_route.py (in progress) until it
imports ``tests.fakes``; the one fake manager is tests/fakes.py."""

from tests.fakes import FakeManager

__all__ = ["FakeManager"]
