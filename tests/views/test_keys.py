"""View keys: one parser, and ``str()`` gives back the very text parsed."""

from __future__ import annotations

import random
import string

import pytest

from bot.views.keys import KeyKind, ViewKey

SHAPES = [
    ("table:r1", ViewKey(KeyKind.TABLE, "r1")),
    ("hand:r1:telegram:42", ViewKey(KeyKind.HAND, "r1", player="telegram:42")),
    ("hand:r1:ai:3", ViewKey(KeyKind.HAND, "r1", player="ai:3")),
    ("settle:r1:3", ViewKey(KeyKind.SETTLE, "r1", round=3)),
    ("settings:r1", ViewKey(KeyKind.SETTINGS, "r1")),
    (
        "settings-read:rules:r1",
        ViewKey(KeyKind.SETTINGS_READ, inner=ViewKey(KeyKind.RULES, "r1")),
    ),
    ("close:r1", ViewKey(KeyKind.CLOSE, "r1")),
    ("verify:r1:2", ViewKey(KeyKind.VERIFY, "r1", round=2)),
    ("notice:r1:notice.joined", ViewKey(KeyKind.NOTICE, "r1", name="notice.joined")),
    ("final:r1:1", ViewKey(KeyKind.FINAL, "r1", name="1")),
    ("review:r1:4:777", ViewKey(KeyKind.REVIEW, "r1", round=4, player="777")),
    ("reach:r1", ViewKey(KeyKind.REACH, "r1")),
    ("help:-", ViewKey(KeyKind.HELP, "-")),
    ("help:open:42", ViewKey(KeyKind.HELP, "open", name="42")),
    ("rules:-100", ViewKey(KeyKind.RULES, "-100")),
    ("leaderboard:-100", ViewKey(KeyKind.LEADERBOARD, "-100")),
    ("leaderboard:-100:skill", ViewKey(KeyKind.LEADERBOARD, "-100", name="skill")),
    ("stats:discord:9", ViewKey(KeyKind.STATS, "discord:9")),
    ("replay:-100:5", ViewKey(KeyKind.REPLAY, "-100", name="5")),
    (
        "notice:r1:notice.x#ab12.0",
        ViewKey(KeyKind.NOTICE, "r1", name="notice.x", one_off="ab12.0"),
    ),
]


@pytest.mark.parametrize(("text", "key"), SHAPES)
def test_each_shape_parses_to_its_fields_and_back(text: str, key: ViewKey) -> None:
    assert ViewKey.parse(text) == key
    assert str(key) == text


@pytest.mark.parametrize(
    "text",
    ["", "table", "nothing:r1", "settle:r1:x", "settle:r1:07", "verify:r1:", "x#y", "hand#"],
)
def test_a_key_of_no_known_shape_is_other_and_kept_whole(text: str) -> None:
    key = ViewKey.parse(text)
    assert key.kind is KeyKind.OTHER
    assert str(key) == text
    assert key.room is None


def test_any_text_round_trips() -> None:
    rng = random.Random(30)
    kinds = [k.value for k in KeyKind] + ["", "x"]
    alphabet = string.ascii_letters + string.digits + ":#-._"
    for _ in range(3000):
        tail = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        text = rng.choice(kinds) + rng.choice(["", ":"]) + tail
        assert str(ViewKey.parse(text)) == text


def test_the_room_is_read_only_from_a_room_s_keys() -> None:
    assert ViewKey.parse("hand:r1:telegram:42").room == "r1"
    assert ViewKey.parse("settings-read:rules:r1").room == "r1"
    assert ViewKey.parse("notice:r1:k#t.0").room == "r1"
    assert ViewKey.parse("table:").room is None
    for chat_or_person in (
        "help:open:42",
        "leaderboard:-100",
        "replay:-100:5",
        "stats:telegram:42",
    ):
        assert ViewKey.parse(chat_or_person).room is None


def test_a_one_off_adds_its_tag_to_any_key() -> None:
    assert str(ViewKey.parse("verify:r1:2").with_one_off("t.1")) == "verify:r1:2#t.1"
    assert str(ViewKey.parse("odd").with_one_off("t.1")) == "odd#t.1"
    assert ViewKey.parse("odd#t.1").is_one_off
    assert ViewKey.parse("verify:r1:2#t.1").is_one_off
    assert not ViewKey.parse("verify:r1:2").is_one_off
