"""What a chat shows: platform-neutral views, message catalogs, renderers.

Kept import-free: ``bot.table.actions`` imports ``bot.views.model``, and the
renderers (``bot.views.render``) import the action-id codec back.
"""
