"""The platform-neutral outbox's one decision, with an in-memory platform:
a view already shown is skipped, a changed one edits its message, a message
gone is posted anew, a settlement that may have been posted is not posted
twice (unless the platform drops repeats), a new post takes the buttons off
the message it replaces, and a new round's table retires last round's
settlement."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from bot.core.actions import encode
from bot.delivery import RetryLater, view_entries
from bot.delivery.outbox import Outbox
from bot.delivery.platform import ButtonRows, DeliveryTraits, Prepared
from bot.delivery.transport import UNSURE, Hold, Permanent
from bot.table.actions import Verb
from bot.views.model import Audience, Button, View, ViewKind, ViewMeta
from storage.delivery import OutboxRow, OutboxState, SentRef
from storage.memory import MemoryRepository

GROUP, ROOM = "g1", "r1"


class Lost(Exception):
    """A post whose answer never came."""


class Screen:
    """A platform in memory: its chats' messages, and every call made."""

    traits = DeliveryTraits("screen")

    def __init__(self) -> None:
        self.messages: dict[str, tuple[str, ButtonRows]] = {}  # id -> text, buttons
        self.calls: list[tuple[str, str]] = []  # (what, message id)
        self.failures: list[Exception] = []  # raised by the next posts

    def is_group(self, chat_id: str) -> bool:
        return chat_id.startswith("g")

    def chat_of(self, view: View) -> str | None:
        return view.chat_id or None

    async def prepare(self, row: OutboxRow, view: View, known: SentRef | None) -> Prepared[str]:
        return Prepared(view, view.text, f"{view.text}|{view.buttons!r}")

    async def edit(self, row: OutboxRow, prepared: Prepared[str], known: SentRef) -> bool:
        view = prepared.view
        self.calls.append(("edit", known.message_id))
        if known.message_id not in self.messages:
            return False  # deleted by someone
        self.messages[known.message_id] = (view.text, view.buttons)
        return True

    async def post(self, row: OutboxRow, prepared: Prepared[str]) -> str:
        view = prepared.view
        if self.failures:
            raise self.failures.pop(0)
        message_id = f"m{len(self.calls) + 1}"
        self.calls.append(("post", message_id))
        self.messages[message_id] = (view.text, view.buttons)
        return message_id

    async def strip(self, chat_id: str, message_id: str, keep: ButtonRows) -> None:
        self.calls.append(("strip", message_id))
        if message_id in self.messages:  # one gone is left as it is
            self.messages[message_id] = (self.messages[message_id][0], keep)

    async def classify(
        self, error: Exception, row: OutboxRow, view: View
    ) -> RetryLater | Permanent | Hold | None:
        return RetryLater("no answer", 0.0, "network") if isinstance(error, Lost) else None

    def maybe_posted(self, error: Exception) -> bool:
        return isinstance(error, Lost)

    def own_button(self, action_id: str) -> tuple[str, int] | None:
        return None


def view(
    kind: ViewKind, key: str, text: str, *verbs: Verb, round_no: int = 1, fresh: bool = False
) -> View:
    buttons = tuple((Button(v.name, encode(ROOM, round_no, v)),) for v in verbs)
    return View(
        kind,
        Audience.GROUP,
        key,
        "",
        (text,),
        buttons=buttons,
        platform="screen",
        chat_id=GROUP,
        fresh=fresh,
        meta=ViewMeta(round=round_no),
    )


def table(text: str, round_no: int = 1, *, fresh: bool = False) -> View:
    return view(ViewKind.TABLE, f"table:{ROOM}", text, Verb.JOIN, round_no=round_no, fresh=fresh)


def settlement(round_no: int = 1) -> View:
    return view(
        ViewKind.SETTLEMENT,
        f"settle:{ROOM}:{round_no}",
        f"round {round_no} paid",
        Verb.START,
        Verb.VERIFY,
        round_no=round_no,
        fresh=True,  # posted once, as the table manager asks
    )


async def shown(outbox: Outbox, *views: View) -> None:
    await outbox.submit(views)
    await outbox.drain()


def made() -> tuple[Screen, Outbox[str], MemoryRepository]:
    store, screen = MemoryRepository(), Screen()
    return screen, Outbox(store, screen), store


async def test_skip_edit_post() -> None:
    screen, outbox, store = made()
    await shown(outbox, table("lobby"))
    assert screen.calls == [("post", "m1")]
    await shown(outbox, table("lobby"))  # it shows this already: nothing is sent
    assert screen.calls == [("post", "m1")]
    await shown(outbox, table("lobby: ann"))  # changed: its message is edited
    assert screen.calls[1:] == [("edit", "m1")]
    assert screen.messages["m1"][0] == "lobby: ann"
    stored = await store.sent_message("screen", GROUP, f"table:{ROOM}")
    assert stored is not None and stored.message_id == "m1" and stored.has_buttons


async def test_a_message_gone_is_posted_anew() -> None:
    screen, outbox, store = made()
    await shown(outbox, table("lobby"))
    del screen.messages["m1"]  # deleted in the chat
    await shown(outbox, table("lobby: ann"))
    assert screen.calls[1:3] == [("edit", "m1"), ("post", "m3")]
    stored = await store.sent_message("screen", GROUP, f"table:{ROOM}")
    assert stored is not None and stored.message_id == "m3"


async def test_a_fresh_post_takes_the_old_messages_buttons() -> None:
    screen, outbox, _ = made()
    await shown(outbox, table("lobby"))
    await shown(outbox, table("lobby again", fresh=True))
    assert screen.calls[1:] == [("post", "m2"), ("strip", "m1")]
    assert screen.messages["m1"][1] == () and screen.messages["m2"][1] != ()


async def test_a_new_rounds_table_retires_last_rounds_settlement() -> None:
    screen, outbox, _ = made()
    await shown(outbox, table("round 1"), settlement(1))
    await shown(outbox, table("round 2", 2, fresh=True))
    settle_id = screen.calls[1][1]
    # "next round" goes, "verify" (it answers whatever the round) stays
    [[kept]] = screen.messages[settle_id][1]
    assert kept.label == Verb.VERIFY.name
    assert ("strip", settle_id) in screen.calls


async def test_a_lobby_change_after_an_unsure_settlement_posts_nothing() -> None:
    """The settlement's answer is lost (Telegram made it), then someone
    joins before the retry: the update takes the row's place, and the round
    is still not announced a second time (the row keeps its unsure mark)."""
    screen, outbox, store = made()
    screen.failures.append(Lost())
    await store.enqueue(view_entries([settlement(1)]), outbox.engine.now())
    [row] = await store.lane_rows("screen", GROUP, outbox.engine.now())
    assert await outbox.engine._deliver(GROUP, row) > 0  # to be retried, marked unsure
    joined = dataclasses.replace(settlement(1), lines=("round 1 paid; Cy joined",), fresh=False)
    await store.enqueue(view_entries([joined]), outbox.engine.now())
    [row] = await store.lane_rows("screen", GROUP, outbox.engine.now() + timedelta(seconds=5))
    assert row.fresh and (row.last_error or "").startswith(UNSURE)
    assert await outbox.deliver(row) is None
    assert screen.calls == []


async def test_an_unsure_settlement_is_not_posted_twice() -> None:
    screen, outbox, store = made()
    await store.enqueue(view_entries([settlement(1)]), outbox.engine.now())
    [row] = await store.lane_rows("screen", GROUP, outbox.engine.now())
    await store.mark_sending(row)  # handed to the platform; then the process died
    [row] = await store.lane_rows("screen", GROUP, outbox.engine.now())
    assert row.state is OutboxState.SENDING
    assert await outbox.deliver(row) is None  # not repeated
    assert screen.calls == []
    # a platform that drops a repeat within its window posts it again, once
    screen.traits = DeliveryTraits("screen", repeat_window=timedelta(minutes=2))
    assert await Outbox(store, screen).deliver(row) is not None
    assert [what for what, _ in screen.calls] == ["post"]


async def test_a_post_without_an_answer_is_marked_unsure() -> None:
    screen, outbox, store = made()
    screen.failures.append(Lost())
    await store.enqueue(view_entries([settlement(1)]), outbox.engine.now())
    [row] = await store.lane_rows("screen", GROUP, outbox.engine.now())
    assert await outbox.engine._deliver(GROUP, row) > 0  # to be retried
    [row] = await store.lane_rows("screen", GROUP, outbox.engine.now() + timedelta(seconds=1))
    assert (row.last_error or "").startswith(UNSURE)
    assert await outbox.deliver(row) is None  # so the settlement is not posted again
    assert screen.calls == []


async def test_an_information_post_is_merged_within_its_window() -> None:
    screen, outbox, store = made()
    rules = view(ViewKind.NOTICE, f"rules:{GROUP}", "the rules")
    await shown(outbox, rules)
    await shown(outbox, view(ViewKind.NOTICE, f"rules:{GROUP}", "the rules, again"))
    assert screen.calls == [("post", "m1"), ("edit", "m1")]
    old = await store.sent_message("screen", GROUP, f"rules:{GROUP}")
    assert old is not None
    outbox.engine.now = lambda: old.at + timedelta(minutes=11)  # type: ignore[operator]
    await shown(outbox, rules)  # asked again much later: a new post
    assert screen.calls[2:] == [("post", "m3")]


async def test_last_rounds_hand_that_never_showed_its_result_loses_its_cards() -> None:
    """The next round's hand came before the last one's result was shown
    (its edit superseded): the old message still has card buttons, so it
    is retired at the new post, keeping only what still answers (Review)."""
    screen, _outbox, store = made()
    screen.traits = DeliveryTraits("screen", new_round_new_message=True)
    outbox = Outbox(store, screen)
    key = f"hand:{ROOM}:u1"
    arranging = view(ViewKind.HAND, key, "round 1 hand", Verb.PICK, Verb.CONFIRM, Verb.REVIEW)
    await shown(outbox, arranging)
    await shown(outbox, view(ViewKind.HAND, key, "round 2 hand", Verb.PICK, round_no=2))
    assert screen.calls == [("post", "m1"), ("post", "m2"), ("strip", "m1")]
    ((kept,),) = screen.messages["m1"][1]
    assert kept.action_id == encode(ROOM, 1, Verb.REVIEW)


async def test_last_rounds_hand_is_left_up_at_the_next_rounds_hand() -> None:
    """Where a new round's message is a new post (Telegram): last round's
    hand (its result) is not edited when the next round's hand is posted;
    a hand posted anew in its own round still loses its game buttons."""
    screen, _outbox, store = made()
    screen.traits = DeliveryTraits("screen", new_round_new_message=True)
    outbox = Outbox(store, screen)  # its traits are read once, when it is built
    key = f"hand:{ROOM}:u1"
    result = view(ViewKind.HAND, key, "round 1 result", Verb.REVIEW, Verb.START)
    await shown(outbox, result)
    assert screen.calls == [("post", "m1")]
    await shown(outbox, view(ViewKind.HAND, key, "round 2 hand", Verb.PICK, round_no=2))
    assert screen.calls[1:] == [("post", "m2")]  # m1 not touched
    assert len(screen.messages["m1"][1]) == 2  # Review and Next round, until pressed
    again = view(ViewKind.HAND, key, "round 2 hand", Verb.PICK, round_no=2, fresh=True)
    await shown(outbox, again)
    assert screen.calls[2:] == [("post", "m3"), ("strip", "m2")]
    assert screen.messages["m2"][1] == ()
