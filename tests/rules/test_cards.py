import pytest

from bot.rules.cards import (
    BIG,
    SMALL,
    Card,
    CardError,
    DeckSpec,
    check_deck,
    parse_card,
    parse_cards,
    sort_by_count,
    sort_by_rank,
    sort_by_suit,
)


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("As", 14, "s"),
        ("Td", 10, "d"),
        ("10d", 10, "d"),
        ("2c", 2, "c"),
        ("kh", 13, "h"),
        ("A♠", 14, "s"),
        ("10♦", 10, "d"),
        ("q♣", 12, "c"),
        ("J♥", 11, "h"),
        (" 9S ", 9, "s"),
    ],
)
def test_parse_tokens(token, rank, suit):
    assert parse_card(token) == Card(rank, suit)


def test_jokers_and_canonical_tokens():
    assert parse_card("BJ") == BIG and parse_card("sj") == SMALL
    assert BIG.is_joker and SMALL.is_joker and not parse_card("As").is_joker
    assert [c.token for c in parse_cards("10d Ts As BJ")] == ["Td", "Ts", "As", "BJ"]
    assert parse_card("Td").symbol == "10♦"


@pytest.mark.parametrize("bad", ["1s", "11h", "Ax", "A", "", "AsA", "JJ", "0c", "1", None, 5])
def test_unknown_tokens_raise(bad):
    with pytest.raises(CardError):
        parse_card(bad)


def test_deck_sizes():
    assert len(DeckSpec().cards()) == 52
    assert len(DeckSpec(jokers=1).cards()) == 53
    assert len(DeckSpec(jokers=2).cards()) == 54
    d65 = DeckSpec(added_suit="s").cards()
    assert len(d65) == 65 and d65.count(Card(14, "s")) == 2 and d65.count(Card(14, "h")) == 1


def test_check_deck_counts():
    spades = DeckSpec(added_suit="s")
    assert check_deck(parse_cards("As As"), spades) is None
    assert "appears 3 times" in check_deck(parse_cards("As As As"), spades)
    assert "appears 2 times" in check_deck(parse_cards("Ah Ah"), spades)
    assert "no jokers" in check_deck(parse_cards("BJ"), DeckSpec())
    assert check_deck(parse_cards("SJ"), DeckSpec(jokers=1)) is None
    assert "2 jokers" in check_deck(parse_cards("SJ BJ"), DeckSpec(jokers=1))
    assert "BJ appears 2" in check_deck(parse_cards("BJ BJ"), DeckSpec(jokers=2))


def test_sorts():
    cards = parse_cards("2c Ah 2s Kd 2h Ks BJ")
    assert [c.token for c in sort_by_rank(cards)] == ["BJ", "Ah", "Ks", "Kd", "2s", "2h", "2c"]
    assert [c.token for c in sort_by_suit(cards)] == ["BJ", "Ks", "2s", "Ah", "2h", "Kd", "2c"]
    assert [c.token for c in sort_by_count(cards)] == ["BJ", "2s", "2h", "2c", "Ks", "Kd", "Ah"]
