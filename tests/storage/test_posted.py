"""What posting a batch reads and writes: the slots' messages and the users to name, in one
trip each way; a slot filled meanwhile by another process is still found out."""

from __future__ import annotations

from bot.core.delivery import Delivery
from bot.core.model import ChatRef, Message, Public, Slot
from bot.core.posting import TELEGRAM, Origin, Recipient
from storage import Database, PostedMessageRepository, UserRepository
from tests.storage.players import Table


class Trips:
    """Counts the hand-overs to the database thread."""

    def __init__(self, database: Database) -> None:
        self.count = 0
        engine = database.engine
        run = engine.run

        async def counted(*arguments: object) -> object:
            self.count += 1
            return await run(*arguments)  # type: ignore[arg-type]

        engine.run = counted  # type: ignore[method-assign]


async def test_slots_are_replaced_in_order_in_one_trip(table: Table) -> None:
    posted = PostedMessageRepository(table.database)
    await posted.replace("telegram", "-100", "board:1", "41")
    trips = Trips(table.database)
    fills = [("-100", "board:1", "57"), ("-100", "board:1", "58"), ("-100", "board:2", "59")]
    assert await posted.replace_all("telegram", fills) == ["41", "57", None]
    assert await posted.replace_all("telegram", [("-100", "board:2", "59")]) == [None]  # same
    assert await posted.replace_all("telegram", []) == []
    assert trips.count == 2
    assert await posted.current("telegram", "-100", "board:1") == "58"


async def test_what_posting_needs_is_read_in_one_trip(table: Table) -> None:
    posted = PostedMessageRepository(table.database)
    users = UserRepository(table.database)
    await users.upsert_user("telegram", "22", "Bob", "de")
    await users.upsert_user("discord", "33", "Carl")
    await posted.replace("telegram", "-100", "board:1", "41")
    await posted.replace("telegram", "-100", "board:2", "42")
    await posted.replace("discord", "-100", "board:1", "9")
    trips = Trips(table.database)
    slots, people = await posted.for_posting(
        "telegram", [("-100", "board:1"), ("-100", "board:3"), ("-200", "board:2")], ["22", "33"]
    )
    assert slots == {("-100", "board:1"): "41"}
    assert [(user.platform_user_id, user.display_name) for user in people] == [("22", "Bob")]
    assert await posted.for_posting("telegram", [], []) == ({}, [])
    assert trips.count == 1


async def test_a_slot_filled_meanwhile_elsewhere_is_stripped_after_posting(table: Table) -> None:
    posted = PostedMessageRepository(table.database)
    users = UserRepository(table.database)
    await users.upsert_user("telegram", "22", "Bob", "de")
    await posted.replace("telegram", "-100", "board:1", "41")
    delivery = Delivery(posted, users)
    group = ChatRef("telegram", "-100")
    board = Message(
        group, "Bob to play", image=b"png", kind=Public(Slot("board:1")), mention=("22",)
    )
    batch = await delivery.prepare(TELEGRAM, [board], Origin("-100", "11", message_id="5"))
    assert batch.slots == {("-100", "board:1"): "41"}
    assert batch.recipients == {"22": Recipient("22", "Bob", "de", True)}
    await posted.replace("telegram", "-100", "board:1", "50")  # another process, meanwhile
    assert batch.shown(board, batch.plan(board), None, "60") == "41"
    batch.refused("22")
    assert await delivery.posted(batch) == [("-100", "50")]
    assert await posted.current("telegram", "-100", "board:1") == "60"
    bob = await delivery.recipient("telegram", "22")
    assert bob is not None
    assert not bob.reachable
