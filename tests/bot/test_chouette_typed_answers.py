"""/take, /drop and /beaver typed at a chouette: each member answers the box's double on their
own cube; the box names the member whose double it answers, and may leave the name out only
when one member's double waits."""

from __future__ import annotations

import pytest

from bot.core.chouette_answers import named_player
from bot.core.chouette_play import OwnRefusalError
from bot.core.i18n import speech
from bot.core.model import Actor
from storage import UserRecord
from tests.bot.scripted import PLATFORM


def _seated(*names: str) -> dict[int, UserRecord]:
    return {
        number: UserRecord(number, PLATFORM, name.lower(), name, None)
        for number, name in enumerate(names, start=1)
    }


def test_a_name_is_read_whole_or_by_its_start_and_a_mention_by_its_account() -> None:
    _ = speech("en")
    users = _seated("Bob", "Bobby Tables", "Cy")
    assert named_player(_, users, (), "") is None
    assert named_player(_, users, (), "bob") == "1"  # the whole name, before any start
    assert named_player(_, users, (), "@BOBBY") == "2"
    assert named_player(_, users, (), " cy ") == "3"
    assert named_player(_, users, (Actor(PLATFORM, "cy", "Cy"),), "bob") == "3"
    with pytest.raises(OwnRefusalError) as several:
        named_player(_, users, (), "bo")
    assert str(several.value) == (
        "Several players here are called bo: Bob, Bobby Tables. Mention the one you mean."
    )
    with pytest.raises(OwnRefusalError) as nobody:
        named_player(_, users, (Actor("other", "cy", "Cy"),), "")
    assert str(nobody.value) == "Nobody called Cy plays at this table."
