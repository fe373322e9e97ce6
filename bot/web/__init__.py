"""The web side of the bot: the arranging page (a Telegram Mini App, or a
browser page opened from Discord) and who may use it."""
