"""Under SimCord, through the real discord.py client: a scoop (打枪) is said
on the showdown when the tail decides it, and the channel's leaderboard is
posted in the channel for everyone (not an ephemeral), once however often
it is asked for."""

from __future__ import annotations

from storage.memory import MemoryRepository
from tests.table.helpers import SCOOPING_DEAL, RiggedRandom

from .game import NAMES, command, deal, open_game
from .harness import embed_text


async def test_a_scoop_and_the_public_leaderboard() -> None:
    repo = MemoryRepository()
    await repo.init()
    game = await open_game(repo, NAMES[:3], rng=RiggedRandom(SCOOPING_DEAL[:2]))
    try:
        alice, bob, carol = game.members
        channel = game.table.channel
        await deal(game, 2)
        table_msg = game.table.table_message()
        for member in (alice, bob):
            await game.arrange_by_suggestion(member, await game.open_hand(member))
        await game.finish_showdown()
        shown = next(m for m in game.table.bot_messages() if m.id == table_msg.id)
        text = embed_text(shown)
        assert "🔫 alice scoops bob ×2" in text
        assert text.index("🔫") > text.index("Tail"), "said once the tail is turned up"

        posts = len(game.table.bot_messages())
        answers = [await command(carol, channel, "leaderboard") for _ in range(3)]
        answers.append(await command(bob, channel, "leaderboard"))
        await game.table.from_timers(game.clock.advance(0))
        boards = [m for m in game.table.bot_messages() if embed_text(m).startswith("Leaderboard")]
        assert len(boards) == 1, "one board in the channel, not one per ask"
        assert len(game.table.bot_messages()) == posts + 1
        board = embed_text(boards[0])
        assert "1. alice: +32" in board and "2. bob: -32" in board
        for answer in answers:  # the asker is told it is done; the board is public
            assert answer.response is not None
            assert "Leaderboard" not in embed_text(answer.response)
        stats = await command(alice, channel, "stats")
        await game.table.from_timers(game.clock.advance(0))
        assert stats.response is not None and "Stats" not in embed_text(stats.response)
        (record,) = [m for m in game.table.bot_messages() if embed_text(m).startswith("Stats")]
        assert "alice" in embed_text(record) and "+32" in embed_text(record)
    finally:
        await game.manager.stop()
        await game.env.shutdown()
        game.env.raise_errors()
