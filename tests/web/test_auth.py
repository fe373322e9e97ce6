"""Who may open the arranging page: Telegram launch data checked by its
signature, and the signed passes bound to (user, room, round)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from bot.web.initdata import InitDataError, sign, verify
from bot.web.passes import Pass, PassError, check, issue

TOKEN = "123456:TEST-token"
NOW = 1_800_000_000


def launch_data(token: str = TOKEN, *, auth_date: int = NOW, **more: str) -> str:
    fields = {
        "auth_date": str(auth_date),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps({"id": 21, "first_name": "Ann", "language_code": "zh-hans"}),
        **more,
    }
    return urlencode({**fields, "hash": sign(fields, token)})


def test_telegram_s_launch_data_names_its_user() -> None:
    user = verify(launch_data(start_param="r_abc"), TOKEN, NOW + 5)
    assert (user.id, user.first_name, user.start_param) == (21, "Ann", "r_abc")
    assert user.language_code == "zh-hans"


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (launch_data().replace("Ann", "Bob"), "bad signature"),  # tampered
        (launch_data("999:other-bot"), "bad signature"),  # signed for another bot
        (launch_data(auth_date=NOW - 3601), "expired"),
        (launch_data(auth_date=NOW + 3600), "future"),
        (launch_data() + "&user=%7B%22id%22%3A22%7D", "duplicate"),
        ("", "missing"),
        ("x" * 5000, "oversized"),
        ("hash=abc", "bad signature"),
    ],
)
def test_launch_data_that_is_not_telegram_s_is_refused(raw: str, reason: str) -> None:
    with pytest.raises(InitDataError, match=reason):
        verify(raw, TOKEN, NOW)


SECRET = b"web-secret"
GRANT = Pass("telegram", "21", "abc", 3, NOW + 120)


def test_a_pass_comes_back_as_issued() -> None:
    assert check(issue(GRANT, SECRET), SECRET, NOW) == GRANT
    assert GRANT.actor_key == "telegram:21"


@pytest.mark.parametrize(
    ("token", "now", "reason"),
    [
        (issue(GRANT, b"other"), NOW, "bad signature"),
        (issue(GRANT, SECRET), NOW + 120, "expired"),
        (issue(GRANT, SECRET).replace(".", "x."), NOW, "bad signature|malformed"),
        ("a.b.c", NOW, "malformed"),
        ("", NOW, "malformed"),
    ],
)
def test_a_forged_or_expired_pass_is_refused(token: str, now: int, reason: str) -> None:
    with pytest.raises(PassError, match=reason):
        check(token, SECRET, now)


def test_a_pass_for_another_user_cannot_be_made_from_one() -> None:
    """Changing the body (another user, room or round) breaks the signature."""
    body, mac = issue(GRANT, SECRET).split(".")
    other = issue(Pass("telegram", "22", "abc", 3, NOW + 120), SECRET).split(".")[0]
    with pytest.raises(PassError, match="bad signature"):
        check(f"{other}.{mac}", SECRET, NOW)
