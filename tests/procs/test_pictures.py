"""Pictures on, the bot as its own ``thirteen run`` process against the
strict fake Bot API: every tap changes the private hand's picture and its
caption, and the round's table photo (every seat's lanes face down from the
deal) becomes the showdown, showing each of its steps once, in order,
before the settlement is posted."""

from __future__ import annotations

from bot.table.actions import Verb
from tests.procs.botproc import ANN, BO, BotProcess, Players, bot_env, until
from tests.procs.game import Fleet, Script
from tests.telegram.fakebotapi import FakeBotAPI, StoredMessage
from tests.telegram.harness import buttons_of

LANES = 3  # head, middle, tail: the showdown's steps without a special hand


def _showdowns(players: Players) -> list[StoredMessage]:
    """Group photos that are not the settlement (which has Verify): the
    round's table, which becomes its showdown."""
    return [m for m in players.group() if m.photo is not None and not buttons_of(m, Verb.VERIFY)]


async def test_taps_and_showdown_steps_with_pictures(api: FakeBotAPI, tmp_path) -> None:
    api.opened |= {ANN.id, BO.id}
    # The production pause between steps; the table's own timers decide.
    env = bot_env(api, f"sqlite:///{tmp_path}/bot.db", PICTURES="true", SHOWDOWN_STEP_SECONDS="1.5")
    fleet = Fleet(api, [BotProcess(env, tmp_path)])
    await fleet.start_all()
    players = Players(api)
    script = Script(players, fleet)
    try:
        hand = (await players.deal(ANN, BO))[BO.id]
        assert hand.photo is not None, "pictures are on: the hand is a photo"
        (table,) = await until(lambda: _showdowns(players), "the round's table photo")
        dealt = table.photo  # the seats' lanes face down
        seen = [(hand.photo, hand.text)]
        cards = [b["callback_data"] for b in buttons_of(hand, Verb.PICK)]
        for data in cards[:4]:  # four different cards, head then middle
            before = len(hand.photos)
            query = players.press_data(BO, hand, data)
            await until(lambda query=query: players.answer(query), "the tap's answer")  # type: ignore[misc]
            await until(lambda before=before: len(hand.photos) > before, "the tap's picture")  # type: ignore[misc]
            await until(lambda: hand.text != seen[-1][1], "the tap's caption")
            seen.append((hand.photo, hand.text))
        assert len({photo for photo, _ in seen}) == len(seen)
        assert len({caption for _, caption in seen}) == len(seen)
        assert await script.tap(BO, hand, Verb.RESET)
        for user in (ANN, BO):
            await script.arrange(user)
        settlement = await until(lambda: players.settlements(1), "the settlement")
        (showdown,) = _showdowns(players)
        assert showdown.message_id == table.message_id, "the table became the showdown"
        assert showdown.message_id < settlement[0].message_id
        assert not showdown.buttons, "the showdown is the round's record"
        # The deal's picture (the confirms changed only the caption), then
        # each step once: as many more pictures as steps, no two alike.
        assert showdown.photos[0] == dealt
        assert len(showdown.photos) == 1 + LANES + ("Special" in showdown.text)
        assert len(set(showdown.photos)) == len(showdown.photos)
        assert not api.refused
    finally:
        await fleet.stop_all()
    assert "bad request" not in fleet.log_text().lower()
