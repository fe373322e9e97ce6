"""A view's picture in an outbox row is its kind and its input as JSON: no
pickled code; every kind comes back equal and draws the same PNG; rows that
earlier versions wrote with a pickled picture still deliver."""

from __future__ import annotations

import base64
import dataclasses
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from bot.core.state import Phase
from bot.delivery.payload import picture_from_payload, view_from_payload, view_to_payload
from bot.pictures import judged_pictures, render_hand, render_settlement, render_showdown
from bot.pictures.cards import Marks
from bot.pictures.final import FinalPicture, FinalRow, render_final
from bot.pictures.kinds import KINDS
from bot.pictures.model import HandPicture, SeatShow
from bot.rules import parse_cards
from bot.rules.cards import Card
from bot.rules.options import Rules
from bot.rules.settlement import settle
from bot.rules.settlement_types import PlayerHand
from bot.rules.types import Arrangement
from bot.views.model import Audience, Picture, View, ViewKind, ViewMeta


def _round() -> tuple[object, object]:
    hands = [
        PlayerHand("ann", Arrangement.of(*map(parse_cards, (["Ac", "Jc", "2c"], ["Kd", "Kc", "Qs", "Js", "9h"], ["Ts", "9s", "8s", "7s", "6s"])))),
        PlayerHand("bo", Arrangement.of(*map(parse_cards, (["3s", "4h", "5c"], ["7d", "7c", "Qh", "Jh", "2h"], ["Tc", "Td", "Th", "8c", "8d"])))),
    ]  # fmt: skip
    rules = Rules(players=2)
    return judged_pictures(hands, settle(hands, rules).to_json(), rules, "zh-Hans")


def pictures() -> list[Picture]:
    show, settlement = _round()
    cards = parse_cards(["BJ", "As", "Td"])
    hand = HandPicture("en", 3, (tuple(cards), (), ()), (Card(2, "h"),), marks=Marks(7, "s"))
    final = FinalPicture("大结算", "3 局", (FinalRow(1, "Ann", 12, "won 2", ""),), None)
    return [
        Picture(render_hand, hand),
        Picture(render_showdown, show),
        Picture(render_settlement, settlement),
        Picture(render_final, final, "final.png"),
    ]


def _view(picture: Picture) -> View:
    return View(ViewKind.NOTICE, Audience.GROUP, "show:r1:1", "", ("a line",), picture=picture)


@pytest.mark.parametrize("picture", pictures(), ids=lambda p: p.render.__name__)
def test_every_kind_is_stored_as_json_and_comes_back_equal(picture: Picture) -> None:
    payload = json.loads(json.dumps(view_to_payload(_view(picture))))  # as the row holds it
    stored = payload["picture"]
    assert stored["kind"] in KINDS and isinstance(stored["data"], dict)
    assert "bot." not in json.dumps(stored)  # no module path in a stored row
    back = view_from_payload(payload).picture
    assert back is not None
    assert back.render is picture.render and back.data == picture.data
    assert back.filename == picture.filename
    assert back.fingerprint == picture.fingerprint


def test_a_stored_picture_draws_the_same_png() -> None:
    picture = pictures()[0]
    back = view_from_payload(json.loads(json.dumps(view_to_payload(_view(picture))))).picture
    assert back is not None and back.render(back.data) == picture.render(picture.data)


def test_a_row_pickled_by_an_earlier_version_still_delivers() -> None:
    picture = pictures()[1]
    old = base64.b64encode(
        pickle.dumps((picture.render, picture.data, picture.filename), protocol=5)
    ).decode("ascii")
    payload = view_to_payload(_view(picture)) | {"picture": old}
    back = view_from_payload(payload).picture
    assert back is not None and back.data == picture.data and back.render is render_showdown


OLD_ROWS = json.loads((Path(__file__).parent / "pickled_pictures.json").read_text("utf-8"))


@pytest.mark.parametrize(
    "row",
    OLD_ROWS["pictures"],
    ids=[f"{p['render']}-{i}" for i, p in enumerate(OLD_ROWS["pictures"])],
)
def test_a_picture_pickled_by_the_last_pickling_version_draws(row: dict[str, Any]) -> None:
    """Bytes the earlier code wrote (tests/delivery/pickled_pictures.json),
    not today's classes pickled today: each picture loads and draws, and a
    showdown's seats have their fields where they were (SeatShow gained
    special_paid in the middle since)."""
    back = picture_from_payload(row["text"])
    assert back is not None and back.render.__name__ == row["render"]
    assert back.render(back.data).startswith(b"\x89PNG")
    if row["render"] == "render_showdown":
        for seat in back.data.seats:
            assert isinstance(seat, SeatShow) and seat.special_paid is None
            assert seat.total is None or isinstance(seat.total, int)
            assert (seat.banker, seat.escaped, seat.auto) == (False, False, False)
        declared = [s for s in back.data.seats if s.special is not None]
        assert all(s.special_points > 0 for s in declared)


@pytest.mark.parametrize(
    "stored",
    [
        {"kind": "exploit", "data": {}},
        {"kind": "hand", "data": {"language": "en"}},  # fields missing
        base64.b64encode(pickle.dumps((print, "x", "a.png"))).decode("ascii"),  # not ours
    ],
)
def test_an_unreadable_picture_goes_out_as_text(stored: object, caplog) -> None:
    payload = view_to_payload(_view(pictures()[0])) | {"picture": stored}
    view = view_from_payload(payload)
    assert view.picture is None and view.lines == ("a line",)
    assert "could not be read" in caplog.text


# A view's meta as rows written before it was typed hold it: strings, as
# each view wrote them (a hand, a table, a settlement, a final, a replay,
# one the outbox marked), and an entry no version reads any more.
OLD_METAS = [
    ({"player": "telegram:101", "round": "3", "deadline": "1700000120"},
     ViewMeta(round=3, player="telegram:101", deadline=1700000120)),
    ({"phase": "showdown", "round": "0"}, ViewMeta(round=0, phase=Phase.SHOWDOWN)),
    ({"round": "2", "lobby_lines": "0"}, ViewMeta(round=2)),
    ({"round": "2", "lobby_lines": "4"}, ViewMeta(round=2, lobby_lines=4)),
    ({"final": "1"}, ViewMeta(final=True)),
    ({"file_name": "round-5.jsonl", "file_text": "{}\n"},
     ViewMeta(file_name="round-5.jsonl", file_text="{}\n")),
    ({"round": "7", "outbox": "hand:r1:telegram:101", "gone": "x"},
     ViewMeta(round=7, outbox="hand:r1:telegram:101")),
    ({"phase": "no such phase", "round": "x", "deadline": "-5"}, ViewMeta()),
    ({}, ViewMeta()),
]  # fmt: skip


@pytest.mark.parametrize(("stored", "meta"), OLD_METAS)
def test_a_row_s_meta_written_before_it_was_typed_reads(
    stored: dict[str, str], meta: ViewMeta
) -> None:
    payload = view_to_payload(_view(pictures()[0])) | {"meta": stored}
    back = view_from_payload(json.loads(json.dumps(payload))).meta
    assert back == meta
    # written again, what was read is what an earlier version would read
    again = view_to_payload(dataclasses.replace(_view(pictures()[0]), meta=back))["meta"]
    assert again == {k: v for k, v in stored.items() if k in again}
    assert ViewMeta.from_payload(again) == meta


def test_a_row_without_meta_reads_none() -> None:
    payload = view_to_payload(_view(pictures()[0]))
    del payload["meta"]
    assert view_from_payload(payload).meta == ViewMeta()
