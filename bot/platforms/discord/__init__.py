"""Discord adapter (discord.py 2.x): ``/thirteen`` commands, the table message
with buttons, ephemeral hands, and DMs on request. See docs/discord.md.

``build_client`` and ``run_discord`` are in ``bot.platforms.discord.client``.
Importing the package declares Discord's traits (``traits.py``) and nothing
more: the library is loaded only where the bot is built.
"""

from . import traits as traits
