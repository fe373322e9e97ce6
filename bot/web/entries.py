"""The ways into the arranging page, and what each lets in.

Three ways open the same page:

- Telegram's Mini App (the Telegram token set): Telegram's clients frame the
  page and it loads Telegram's script from telegram.org;
- Discord's Activity (DISCORD_ACTIVITY on): Discord's client frames the page,
  served through Discord's proxy from ``https://<client id>.discordsays.com``,
  and the page's POSTs come from that origin;
- the signed link (always): a plain browser tab, nothing framing it.

The page's Content-Security-Policy follows the ways that are on: a host is
let in (to frame the page, to serve a script, to POST) only where its way is
on, so a deployment without Telegram names no Telegram host, and one without
the Activity no Discord host.
"""

from __future__ import annotations

from dataclasses import dataclass

TELEGRAM_SCRIPT = "https://telegram.org"
TELEGRAM_FRAMES = ("https://web.telegram.org", "https://*.telegram.org")
# Discord's web and desktop clients (discord.com, ptb., canary.) and the
# proxy's frames the Activity is nested in.
DISCORD_FRAMES = ("https://discord.com", "https://*.discord.com", "https://*.discordsays.com")
# The <script> of Telegram's launch data in index.html; left out without Telegram.
CLIENT_ID = 'data-client-id=""'
TELEGRAM_TAG = '<script src="https://telegram.org/js/telegram-web-app.js"></script>\n'


@dataclass(frozen=True)
class Entries:
    """Which ways are on; ``activity_client_id`` is the Discord application's
    id where the Activity is on (its proxy's origin is named by it)."""

    telegram: bool = True
    activity_client_id: str | None = None

    @property
    def activity(self) -> bool:
        return self.activity_client_id is not None

    @property
    def activity_origin(self) -> str | None:
        """The origin Discord's proxy serves the Activity from."""
        if self.activity_client_id is None:
            return None
        return f"https://{self.activity_client_id}.discordsays.com"

    def csp(self) -> str:
        scripts = ["'self'"] + ([TELEGRAM_SCRIPT] if self.telegram else [])
        frames = ["'self'"]
        if self.telegram:
            frames += TELEGRAM_FRAMES
        if self.activity:
            frames += DISCORD_FRAMES
        return (
            f"default-src 'self'; script-src {' '.join(scripts)}; style-src 'self'; "
            "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            f"frame-ancestors {' '.join(frames)}"
        )

    def page(self, html: str) -> str:
        """index.html for these ways: Telegram's script only where Telegram is
        on; the Discord application's id (the SDK's handshake names it) only
        where the Activity is."""
        if CLIENT_ID not in html or TELEGRAM_TAG not in html:
            raise ValueError("index.html has no host.js client id or Telegram script to fill")
        if self.activity_client_id is not None:
            html = html.replace(CLIENT_ID, f'data-client-id="{self.activity_client_id}"', 1)
        return html if self.telegram else html.replace(TELEGRAM_TAG, "", 1)
