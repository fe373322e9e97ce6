"""What both the table and the views need, below both of them: the verbs
and every fact about each (``verbs``), the action ids (``actions``),
read-only helpers over a hand's lanes (``lanes``), the room's options as
shown (``options``) and what a declared special was really paid (``paid``).

Arrows point down only: ``bot.table`` -> ``bot.views`` -> ``bot.core`` ->
``bot.rules`` (tests/test_layers.py checks it).
"""
