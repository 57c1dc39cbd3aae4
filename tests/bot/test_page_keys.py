"""Who may act on the board page: Telegram Mini App initData checked as Telegram documents it,
and the signed player keys of private links. The signed initData here is made by following
Telegram's published steps in the test itself, not through the module."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.page_access import (
    AccessDenied,
    InitDataRefused,
    KeyRefused,
    MiniAppUser,
    PlayerKey,
    check_init_data,
    issue,
    read,
)

TOKEN = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"
OTHER_TOKEN = "654321:ZYX-wv2u1v57zyx-lkIhg4321FED11we321"
AUTH_DATE = 1_700_000_000
DAY = 86_400
USER = {
    "id": 279058397,
    "first_name": "Vladislav",
    "last_name": "Kibenko",
    "username": "vdkfrost",
    "language_code": "ru",
    "is_premium": True,
    "allows_write_to_pm": True,
}


def telegram_signs(fields: dict[str, str], token: str = TOKEN) -> str:
    """The query string Telegram would give the Mini App: the steps of
    https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app."""
    data_check_string = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret_key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    signed = hmac.new(secret_key, data_check_string.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": signed})


def fields(**changes: str) -> dict[str, str]:
    written = {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(USER, separators=(",", ":")),
        "auth_date": str(AUTH_DATE),
    }
    return {**written, **changes}


def check(init_data: str, token: str = TOKEN, now: float = AUTH_DATE + 5) -> MiniAppUser:
    return check_init_data(init_data, token, now=now, max_age=DAY)


def refused(init_data: str, token: str = TOKEN, now: float = AUTH_DATE + 5) -> str:
    with pytest.raises(InitDataRefused) as raised:
        check(init_data, token, now)
    return raised.value.reason


# Computed once by hand from Telegram's documentation, with a one-off command:
#   token = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"
#   dcs = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))   # hash left out
#   key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
#   hmac.new(key, dcs.encode(), hashlib.sha256).hexdigest()
# for auth_date=1700000000, the query_id and the user JSON below (URL-encoded here).
LITERAL = (
    "auth_date=1700000000&query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C"
    "%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22"
    "%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%2C%22"
    "allows_write_to_pm%22%3Atrue%7D"
    "&hash=069a8d7bf45cb0243f0848f58dfa52de7c9edcc70d315621c5eeb114c9507227"
)


def test_the_literal_vector_is_accepted() -> None:
    assert check(LITERAL) == MiniAppUser(
        user_id="279058397",
        name="Vladislav",
        language_code="ru",
        auth_date=AUTH_DATE,
        start_param=None,
    )


def test_signed_init_data_names_its_user_and_start_param() -> None:
    user = check(telegram_signs(fields(start_param="m12")))
    assert (user.user_id, user.name, user.start_param) == ("279058397", "Vladislav", "m12")


def test_the_signature_field_is_signed_like_any_other() -> None:
    signed = telegram_signs(fields(signature="c2lnbmF0dXJl"))
    assert check(signed).user_id == "279058397"
    assert refused(signed.replace("c2lnbmF0dXJl", "b3RoZXI")) == "bad_signature"


def test_a_user_without_a_language_code() -> None:
    user = json.dumps({"id": 7, "first_name": "Ann"})
    assert check(telegram_signs(fields(user=user))).language_code is None


def test_a_changed_user_id_is_refused() -> None:
    tampered = telegram_signs(fields()).replace("279058397", "279058398")
    assert refused(tampered) == "bad_signature"


def test_the_literal_vector_changed_is_refused() -> None:
    assert refused(LITERAL.replace("Vladislav", "Vladislaw")) == "bad_signature"


def test_another_bots_data_is_refused() -> None:
    assert refused(telegram_signs(fields()), token=OTHER_TOKEN) == "bad_signature"
    assert refused(telegram_signs(fields(), token=OTHER_TOKEN)) == "bad_signature"


def test_old_data_is_refused() -> None:
    signed = telegram_signs(fields())
    assert check(signed, now=AUTH_DATE + DAY).auth_date == AUTH_DATE
    assert refused(signed, now=AUTH_DATE + DAY + 1) == "expired"


def test_data_from_the_future_is_refused() -> None:
    signed = telegram_signs(fields())
    assert check(signed, now=AUTH_DATE - 60).auth_date == AUTH_DATE
    assert refused(signed, now=AUTH_DATE - 61) == "from_the_future"


def test_data_without_a_hash_is_refused() -> None:
    assert refused(urlencode(fields())) == "malformed"


def test_a_key_given_twice_is_refused() -> None:
    signed = telegram_signs(fields())
    assert refused(signed + "&auth_date=1700000001") == "malformed"
    assert refused(signed + "&" + signed.split("&")[-1]) == "malformed"  # the hash twice


def test_signed_data_without_a_user_or_date() -> None:
    without_user = {key: value for key, value in fields().items() if key != "user"}
    assert refused(telegram_signs(without_user)) == "no_user"
    without_date = {key: value for key, value in fields().items() if key != "auth_date"}
    assert refused(telegram_signs(without_date)) == "malformed"


@pytest.mark.parametrize(
    "user",
    ['{"id":"7","first_name":"Ann"}', '{"id":7}', "[7]", "{", '{"id":true,"first_name":"A"}'],
)
def test_a_signed_user_that_is_not_a_user_is_refused(user: str) -> None:
    assert refused(telegram_signs(fields(user=user))) == "malformed"


@given(st.text(max_size=300))
def test_any_text_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(InitDataRefused) as raised:
        check(text)
    assert raised.value.reason in {"malformed", "bad_signature"}


_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)


@given(st.dictionaries(_TEXT, _TEXT, max_size=6), st.booleans())
def test_any_signed_fields_are_read_or_refused_with_a_reason(
    written: dict[str, str], over_good_ones: bool
) -> None:
    """Telegram's signature on fields of any content: the module's refusal or a user, never
    another exception."""
    written.pop("hash", None)
    signed = telegram_signs({**fields(), **written} if over_good_ones else written)
    reason = None
    try:
        check(signed)
    except InitDataRefused as refusal:
        reason = refusal.reason
    assert reason in {None, "malformed", "expired", "from_the_future", "no_user"}


KEY = PlayerKey(match_id=12, platform="discord", user_id="4242", expires=1_800_000_000)
SECRET = bytes(range(32))
NOW = 1_799_990_000


def test_a_key_reads_back() -> None:
    text = issue(KEY, SECRET)
    assert text.startswith("k1.")
    assert read(text, SECRET, now=NOW, match_id=12) == KEY


def test_a_key_with_any_names_reads_back() -> None:
    key = PlayerKey(match_id=3, platform="console", user_id='a:b."ü"', expires=NOW + 1)
    assert read(issue(key, SECRET), SECRET, now=NOW, match_id=3) == key


def key_refused(text: str, secret: bytes = SECRET, now: float = NOW, match_id: int = 12) -> str:
    with pytest.raises(KeyRefused) as raised:
        read(text, secret, now=now, match_id=match_id)
    return raised.value.reason


def test_a_key_under_another_secret_is_refused() -> None:
    assert key_refused(issue(KEY, bytes(32))) == "bad_signature"


def test_an_expired_key_is_refused() -> None:
    text = issue(KEY, SECRET)
    assert read(text, SECRET, now=KEY.expires - 1, match_id=12) == KEY
    assert key_refused(text, now=KEY.expires) == "expired"


def test_a_key_of_another_match_is_refused() -> None:
    assert key_refused(issue(KEY, SECRET), match_id=13) == "other_match"


@given(st.data())
def test_any_changed_character_is_refused(data: st.DataObject) -> None:
    text = issue(KEY, SECRET)
    at = data.draw(st.integers(0, len(text) - 1))
    alphabet = "k1.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/"
    other = data.draw(st.sampled_from(alphabet).filter(lambda c: c != text[at]))
    changed = text[:at] + other + text[at + 1 :]
    assert key_refused(changed) in {"malformed", "bad_signature"}


@given(st.text(max_size=200))
def test_any_text_is_refused_as_a_key(text: str) -> None:
    with pytest.raises(KeyRefused):
        read(text, SECRET, now=NOW, match_id=12)


def test_a_key_signed_over_different_fields_is_refused() -> None:
    """The tag covers the whole payload: another payload with this key's tag is refused."""
    _version, _payload, tag = issue(KEY, SECRET).split(".")
    other = issue(PlayerKey(12, "discord", "4243", KEY.expires), SECRET).split(".")[1]
    assert key_refused(f"k1.{other}.{tag}") == "bad_signature"


def test_both_refusals_are_access_denied() -> None:
    assert issubclass(InitDataRefused, AccessDenied)
    assert issubclass(KeyRefused, AccessDenied)
