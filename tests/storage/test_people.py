"""Preference and chat-setting merges made at the same moment all survive: in one process,
and from two Database objects on one database (as two processes would be), SQLite or
PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from storage import ChatRepository, Database, NotFoundError, UserRepository
from tests.storage.pauses import pause_after_first_statement

KEYS = 30


async def test_auto_roll_and_theme_at_once_both_kept(
    databases: tuple[Database, Database],
) -> None:
    users = UserRepository(databases[0])
    user = await users.upsert_user("telegram", "1001", "Anna")
    await asyncio.gather(
        users.set_preferences(user.id, {"auto_roll": False}),
        users.set_preferences(user.id, {"theme": "dark"}),
    )
    assert (await users.get_user(user.id)).preferences == {"auto_roll": False, "theme": "dark"}


async def test_many_preferences_at_once_all_kept(databases: tuple[Database, Database]) -> None:
    users = UserRepository(databases[0])
    user = await users.upsert_user("telegram", "1001", "Anna")
    answers = await asyncio.gather(
        *(users.set_preferences(user.id, {f"key{n}": n}) for n in range(KEYS))
    )
    assert (await users.get_user(user.id)).preferences == {f"key{n}": n for n in range(KEYS)}
    # Each answer is the user as that call left it: its own key, and every earlier one.
    for n, answer in enumerate(answers):
        assert answer.id == user.id
        assert answer.preferences[f"key{n}"] == n


async def test_preferences_from_two_databases_on_one_file_all_kept(
    databases: tuple[Database, Database],
) -> None:
    first, second = UserRepository(databases[0]), UserRepository(databases[1])
    user = await first.upsert_user("telegram", "1001", "Anna")
    await asyncio.gather(
        *((first, second)[n % 2].set_preferences(user.id, {f"key{n}": n}) for n in range(KEYS))
    )
    expected = {f"key{n}": n for n in range(KEYS)}
    assert (await first.get_user(user.id)).preferences == expected
    assert (await second.get_user(user.id)).preferences == expected


async def test_a_slow_merge_in_another_process_keeps_both(
    databases: tuple[Database, Database],
) -> None:
    """The first merge stalls between its first statement and its write while the second
    database merges: the second must wait for the first, not be overwritten by it."""
    first, second = UserRepository(databases[0]), UserRepository(databases[1])
    user = await first.upsert_user("telegram", "1001", "Anna")
    paused = pause_after_first_statement(databases[0], "UPDATE users")
    slow = asyncio.create_task(first.set_preferences(user.id, {"auto_roll": False}))
    assert await asyncio.to_thread(paused.wait, 5)
    await second.set_preferences(user.id, {"theme": "dark"})
    await slow
    assert (await second.get_user(user.id)).preferences == {"auto_roll": False, "theme": "dark"}


async def test_many_chat_settings_at_once_all_kept(databases: tuple[Database, Database]) -> None:
    first, second = ChatRepository(databases[0]), ChatRepository(databases[1])
    chat = await first.upsert_chat("telegram", "-500")
    await asyncio.gather(
        *(
            (first, second)[n % 2].update_chat(chat.id, settings={f"key{n}": n})
            for n in range(KEYS)
        ),
        first.update_chat(chat.id, locale="de"),
    )
    found = await first.get_chat(chat.id)
    assert found.settings == {f"key{n}": n for n in range(KEYS)}
    assert found.locale == "de"


async def test_a_slow_chat_merge_in_another_process_keeps_both(
    databases: tuple[Database, Database],
) -> None:
    first, second = ChatRepository(databases[0]), ChatRepository(databases[1])
    chat = await first.upsert_chat("telegram", "-500")
    paused = pause_after_first_statement(databases[0], "UPDATE chats")
    slow = asyncio.create_task(first.update_chat(chat.id, settings={"length": 5}))
    assert await asyncio.to_thread(paused.wait, 5)
    await second.update_chat(chat.id, locale="fr", settings={"cube": False})
    await slow
    found = await second.get_chat(chat.id)
    assert found.settings == {"length": 5, "cube": False}
    assert found.locale == "fr"


async def test_merges_answer_the_row_and_refuse_unknown_ids(
    databases: tuple[Database, Database],
) -> None:
    users, chats = UserRepository(databases[0]), ChatRepository(databases[0])
    user = await users.upsert_user("telegram", "1001", "Anna", "en")
    await users.set_preferences(user.id, {"notify": True, "theme": "light"})
    answer = await users.set_preferences(user.id, {"theme": "dark", "none": None})
    assert answer == await users.get_user(user.id)
    assert answer.preferences == {"notify": True, "theme": "dark", "none": None}
    assert answer.locale == "en"

    chat = await chats.upsert_chat("telegram", "-500", "en")
    assert await chats.update_chat(chat.id) == chat
    assert (await chats.update_chat(chat.id, locale="de")).locale == "de"
    updated = await chats.update_chat(chat.id, settings={"length": 7})
    assert updated == await chats.get_chat(chat.id)
    assert (updated.locale, updated.settings) == ("de", {"length": 7})

    with pytest.raises(NotFoundError):
        await users.set_preferences(user.id + 100, {"theme": "dark"})
    with pytest.raises(NotFoundError):
        await chats.update_chat(chat.id + 100, settings={"length": 3})
    with pytest.raises(NotFoundError):
        await chats.update_chat(chat.id + 100, locale="de")


async def test_users_by_id_reads_the_named_users_at_once(
    databases: tuple[Database, Database],
) -> None:
    users = UserRepository(databases[0])
    anna = await users.upsert_user("telegram", "1001", "Anna")
    bert = await users.upsert_user("discord", "77", "Bert")
    await users.upsert_user("telegram", "1002", "Cleo")  # not asked for
    missing = anna.id + bert.id + 1000
    found = await users.users_by_id([bert.id, anna.id, bert.id, missing])
    assert {user_id: user.display_name for user_id, user in found.items()} == {
        anna.id: "Anna",
        bert.id: "Bert",
    }
    assert found[bert.id].platform == "discord"
    assert await users.users_by_id([]) == {}
