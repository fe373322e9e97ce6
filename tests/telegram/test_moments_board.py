"""The showdown's moments and the group's own board, in whole Telegram
games through the real client on the strict fake Bot API.

- A scoop (打枪) and a home run (全垒打) are stamped on the showdown's
  picture at the step that decides them (the tail), red for a scoop and
  gold for a home run (checked by pixels), and said in its caption.
- ``/leaderboard`` and ``/stats`` typed in the group answer in the group;
  a flood of ``/leaderboard`` leaves one board, not one post per ask.
"""

from __future__ import annotations

from datetime import timedelta

import numpy as np
from PIL import Image

from bot.delivery.outbox import BOARD_MERGE
from bot.pictures import draw_showdown
from bot.pictures.stamps import RED
from bot.table.actions import Verb
from tests.pictures.pixels import decode
from tests.table.helpers import SCOOPING_DEAL, RiggedRandom
from tests.telegram.fakebotapi import FakeBotAPI, StoredMessage
from tests.telegram.harness import GROUP_ID, buttons_of
from tests.telegram.play import (
    USERS,
    arrange_by_suggestion,
    open_room,
    reveal,
    start_round,
    table,
)

ANN, BO, CY = SCOOPING_DEAL


def stamp_red(image: Image.Image) -> np.ndarray:
    """Where the picture shows a scoop stamp's red, laid over the felt at
    240/255 (a card's red is brighter: only a card's edge can match)."""
    px = np.asarray(image).astype(int)
    r, g, b = px[..., 0], px[..., 1], px[..., 2]
    want = [round(c * 240 / 255 + f * 15 / 255) for c, f in zip(RED, (18, 84, 52), strict=True)]
    return (abs(r - want[0]) <= 4) & (abs(g - want[1]) <= 4) & (abs(b - want[2]) <= 4)


def stamp_gold(image: Image.Image) -> np.ndarray:
    px = np.asarray(image).astype(int)
    r, g, b = px[..., 0], px[..., 1], px[..., 2]
    return (r > 225) & (g > 175) & (g < 200) & (b < 80)


def band(image: Image.Image, seats: int) -> Image.Image:
    """The part under the seats' rows, where the stamps go."""
    return image.crop(
        (0, draw_showdown.HEADER_H + seats * draw_showdown.ROW_H, image.width, image.height)
    )


def showdown_message(messages: list[StoredMessage]) -> StoredMessage:
    (found,) = [m for m in messages if "showdown" in m.text and len(m.photos) > 1]
    return found


async def play(api: FakeBotAPI, hands: list[list[str]]) -> StoredMessage:
    """Ann deals the chosen ``hands`` to the first players, everyone takes
    the first suggestion, and the showdown plays out: its message."""
    users = USERS[: len(hands)]
    api.opened |= {u.id for u in users}
    async with table(api, rng=RiggedRandom(hands)) as (h, manager, clock):
        await open_room(h, *users)
        await start_round(h, users[0])
        for user in users:
            await arrange_by_suggestion(h, user)
        await reveal(h, clock)
        await h.outbox.drain()
        return showdown_message(h.group_messages())


async def test_a_scoop_is_stamped_when_the_tail_decides_it(api: FakeBotAPI) -> None:
    shown = await play(api, [ANN, BO])
    assert "🔫 Ann scoops Bo ×2" in shown.text
    # the pictures it showed, from the deal: the last one is the tail's
    pictures = [decode(png) for png in shown.photos]
    last, before = pictures[-1], pictures[:-1]
    assert last.size[1] > before[-1].size[1], "the tail's picture has the stamps' band"
    assert stamp_red(band(last, 2)).mean() > 0.04, "a red 打枪 stamp under the seats"
    assert (
        stamp_red(
            last.crop((0, 0, last.width, draw_showdown.HEADER_H + 2 * draw_showdown.ROW_H))
        ).mean()
        < 0.002
    )
    for earlier in before:  # the deal, the head, the middle: nothing decided yet
        assert earlier.size == draw_showdown.size(2)
        assert stamp_red(earlier).mean() < 0.002


async def test_a_home_run_is_stamped_in_gold(api: FakeBotAPI) -> None:
    shown = await play(api, [ANN, BO, CY])
    assert "🏆 Home run! Ann scoops everyone ×4" in shown.text
    assert "🔫" not in shown.text  # Ann's scoops are the home run; Bo and Cy's is none
    last = decode(shown.photos[-1])
    assert stamp_gold(band(last, 3)).mean() > 0.04, "a gold 全垒打 stamp"
    assert stamp_red(band(last, 3)).mean() < 0.002


async def test_the_groups_board_answers_in_the_group_once(api: FakeBotAPI) -> None:
    ann, bo, cy = USERS[:3]
    api.opened |= {ann.id, bo.id}
    async with table(api, rng=RiggedRandom([ANN, BO])) as (h, manager, clock):
        await open_room(h, ann, bo)
        await start_round(h, ann)
        for user in (ann, bo):
            await arrange_by_suggestion(h, user)
        await reveal(h, clock)
        await h.outbox.drain()
        posts = len(api.calls_of("sendMessage")) + len(api.calls_of("sendPhoto"))
        await h.command(bo, "/leaderboard")
        await h.outbox.drain()
        (board,) = [m for m in h.group_messages() if m.text.startswith("Leaderboard")]
        assert board.text.splitlines() == [
            "Leaderboard · all time",
            "1. Ann: +32 · 1 rounds · 100% won · scoops 1 · home runs 0 · specials 0",
            "2. Bo: -32 · 1 rounds · 0% won · scoops 0 · home runs 0 · specials 0",
        ]
        assert all(not m.text.startswith("Leaderboard") for m in h.private_messages(bo))
        # a flood: everyone asks again, over and over (cy too, never seated)
        for _ in range(4):
            for user in (ann, bo, cy):
                await h.command(user, "/leaderboard")
        await h.outbox.drain()
        boards = [m for m in h.group_messages() if m.text.startswith("Leaderboard")]
        assert boards == [board], "one board, not one post per ask"
        sent = len(api.calls_of("sendMessage")) + len(api.calls_of("sendPhoto"))
        assert sent == posts + 1

        def board_edits() -> int:
            calls = api.calls_of("editMessageText")
            return sum(str(c.params.get("message_id")) == str(board.message_id) for c in calls)

        assert board_edits() == 0, "the same board again: nothing to edit"
        # another period edits the same board in place
        await h.command(cy, "/leaderboard week")
        await h.outbox.drain()
        assert board.text.startswith("Leaderboard · this week")
        assert [m for m in h.group_messages() if m.text.startswith("Leaderboard")] == [board]
        assert board_edits() == 1
        # the best arrangers' board too: in the group, once for three asks
        for user in (ann, bo, cy):
            await h.command(user, "/leaderboard skill")
        await h.outbox.drain()
        skill = [m for m in h.group_messages() if m.text.startswith("🧠 Best arrangers")]
        assert len(skill) == 1 and "at least 20 reviewed rounds" in skill[0].text
        # a person's record, asked in the group, answers there
        await h.command(ann, "/stats")
        await h.outbox.drain()
        (stats,) = [m for m in h.group_messages() if m.text.startswith("Stats · Ann")]
        assert "+32" in stats.text and "1 rounds" in stats.text
        assert all(not m.text.startswith("Stats") for m in h.private_messages(ann))
        # the lobby's Leaderboard button shows the same board in the group
        lobby = [m for m in h.group_messages() if buttons_of(m, Verb.LEADERBOARD)][-1]
        await h.press_verb(bo, lobby, Verb.LEADERBOARD)
        await h.outbox.drain()
        assert [m for m in h.group_messages() if m.text.startswith("Leaderboard")] == [board]
        assert board.text.startswith("Leaderboard · all time")
        assert board.chat_id == GROUP_ID
        # asked again later (after the next round, say): posted anew at the
        # bottom, where the group sees it, not edited far above
        engine = h.outbox.engine
        later = engine.now() + BOARD_MERGE + timedelta(seconds=1)
        engine.now = lambda: later
        await h.command(cy, "/leaderboard")
        await h.outbox.drain()
        boards = [m for m in h.group_messages() if m.text.startswith("Leaderboard")]
        assert len(boards) == 2 and boards[0] is board and boards[1] is h.group_messages()[-1]
