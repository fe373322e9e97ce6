import pytest

from bot.rules import OptionError, Preset, make_rules
from bot.rules.options import Wheel


def test_preset_defaults():
    c = make_rules("classic", 4)
    e = make_rules("extended", 4)
    assert c.scoop_double and not c.draw_counts_as_scoop and not c.escape_penalty
    assert e.draw_counts_as_scoop and e.escape_penalty and e.preset is Preset.EXTENDED
    assert c.wheel is Wheel.SECOND and c.base == 1


@pytest.mark.parametrize(
    ("preset", "players", "options", "reason"),
    [
        ("classic", 3, {"banker": True}, "exactly 4 players"),
        ("classic", 4, {"banker": True, "jokers": 1}, "without jokers"),
        ("classic", 4, {"banker": True, "wild_rank": "6"}, "without a wild rank"),
        ("extended", 4, {"banker": True}, "classic"),
        ("classic", 5, {"added_suit": "s", "jokers": 2}, "without jokers"),
        ("classic", 5, {"added_suit": "s", "wild_rank": "6"}, "without a wild rank"),
        ("classic", 5, {}, "need an added suit"),
        ("classic", 4, {"added_suit": "h"}, "only for 5 players"),
        ("extended", 5, {"added_suit": "h"}, "classic preset only"),
        ("classic", 3, {"jokers": 1, "wild_rank": "6"}, "cannot be played together"),
        ("classic", 4, {"extra_three": True}, "2 or 3 players"),
        ("classic", 6, {}, "2 to 5 players"),
        ("classic", 1, {}, "2 to 5 players"),
        ("classic", 4, {"jokers": 3}, "0, 1 or 2"),
        ("classic", 4, {"wheel": "high"}, "second"),
        ("classic", 4, {"wild_rank": "Z"}, "wild_rank"),
        ("classic", 4, {"colour": 1}, "unknown option"),
        ("classic", 4, {"scoop_double": "yes"}, "true or false"),
        ("classic", 4, {"base": 0}, "base"),
        ("classic", 4, {"special_points": {"dragon2": 5}}, "no special hand"),
        ("poker", 4, {}, "unknown preset"),
    ],
)
def test_forbidden_combinations_refused_with_reason(preset, players, options, reason):
    with pytest.raises(OptionError, match=reason):
        make_rules(preset, players, options)


def test_allowed_combinations():
    assert make_rules("classic", 5, {"added_suit": "♥"}).added_suit == "h"
    assert make_rules("classic", 4, {"banker": True}).banker
    assert make_rules("classic", 3, {"extra_three": True}).cards_per_player == 16
    assert make_rules("extended", 4, {"wild_rank": "q"}).wild_rank == 12
    assert make_rules("extended", 2, {"jokers": 2, "wheel": "low"}).wheel is Wheel.LOW
    r = make_rules("extended", 4, {"special_points": {"all_high": 12}})
    assert r.special_points["all_high"] == 12
    assert make_rules("classic", 4, {"escape_penalty": True, "base": 3}).base == 3
