"""The table manager: rooms, seats, rounds, arranging, timers, settlement.

Platform-neutral: adapters send ``Action``s to ``TableManager.handle`` and
render the ``View``s that come back (see ``manager.py``).
"""
