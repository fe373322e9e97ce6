"""What a chat shows: platform-neutral views, message catalogs, renderers.

The views read the room's state and never import the table: the action-id
codec and the lane helpers they share with it live in ``bot.core``.
"""
