"""Forum groups on Telegram: a topic is a chat of its own. A match challenged in a topic stays
in it (its boards are sent with the topic's ``message_thread_id``, not to the General topic);
a tournament's pairing opens a topic of its own (``createForumTopic``), is announced there with
[Start], and a line in the group leads to it; the match plays in the topic, and what its end
makes known is told in the group. Without the right to manage topics, or in a group that is no
forum, the pairing is announced in the group itself."""

from __future__ import annotations

import random
from typing import Any

from storage import TournamentMatchRecord
from tests.fakes.telegram_bot_api import Call, Stored
from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Harness, Process
from tests.telegram_app.tournaments import ANNOUNCED, DORA, PEOPLE, pairing_players, start_data
from tests.tournament_runs import next_turn

TOPIC_LINK = "https://t.me/c/123/"  # GROUP is -100123


def button(stored: Stored, label: str) -> str:
    for row in stored.data.get("reply_markup", {}).get("inline_keyboard", []):
        for found in row:
            if found["text"] == label:
                return str(found["callback_data"])
    raise AssertionError(f"no [{label}] on {stored.data}")


def sent_to(calls: list[Call]) -> set[tuple[int, int | None]]:
    """The (chat, topic) of every message the calls sent to a group (not the players'
    private notifications)."""
    return {
        (call.params["chat_id"], call.params.get("message_thread_id"))
        for call in calls
        if call.method.startswith("send") and call.params["chat_id"] < 0
    }


async def test_a_match_challenged_in_a_topic_is_played_in_that_topic(telegram: Harness) -> None:
    api = telegram.api
    api.forums.add(GROUP)
    topic = api._create_forum_topic({"chat_id": GROUP, "name": "Backgammon"}, {})
    thread = topic["message_thread_id"]
    await telegram.say(BOB, GROUP, "/help", topic=thread)
    challenged = await telegram.say(ANNA, GROUP, "/challenge @bob 1", topic=thread)
    assert sent_to(challenged) == {(GROUP, thread)}
    (challenge,) = [s for s in api.in_topic(GROUP, thread) if "Accept" in str(s.data)]
    accepted = await telegram.press(
        BOB, GROUP, challenge.data["message_id"], button(challenge, "Accept")
    )
    assert sent_to(accepted) == {(GROUP, thread)}  # the board is in the topic
    assert api.in_topic(GROUP, None) == []  # nothing in the General topic
    chat = await telegram.stores.chats.find_chat("telegram", f"{GROUP}:{thread}")
    anna = await telegram.stores.users.find_user("telegram", "11")
    assert chat is not None
    assert anna is not None
    turn = await next_turn(telegram.stores, chat.id, anna.id, random.Random(1))
    assert turn is not None
    mover = PEOPLE[(await telegram.stores.users.get_user(turn[0])).platform_user_id]
    moved = await telegram.say(mover, GROUP, turn[1], topic=thread)
    assert sent_to(moved) == {(GROUP, thread)}
    assert await next_turn(telegram.stores, chat.id, anna.id, random.Random(1)) != turn
    # Chatter in the topic answers the topic's first message (the bot's, which created it):
    # it is not a move typed in answer to the bot.
    assert await telegram.say(CARL, GROUP, "nice roll", topic=thread) == []


async def test_an_administrator_in_a_topic_is_the_groups(telegram: Harness) -> None:
    api = telegram.api
    api.forums.add(GROUP)
    thread = api._create_forum_topic({"chat_id": GROUP, "name": "Club"}, {})["message_thread_id"]
    api.admins.add((GROUP, ANNA["id"]))
    opened = await telegram.say(ANNA, GROUP, '/tournament new 1 "Cup"', topic=thread)
    (asked,) = [call for call in opened if call.method == "getChatMember"]
    assert asked.params["chat_id"] == GROUP
    assert any("Cup: single elimination" in s.data.get("text", "") for s in api.in_chat(GROUP))


async def _open_four(telegram: Harness) -> None:
    """Anna, an administrator, opens a 1-point knockout of four in the group (its General
    topic) and starts it: two semifinals."""
    telegram.api.admins.add((GROUP, ANNA["id"]))
    await telegram.say(ANNA, GROUP, '/tournament new 1 "Cup"')
    for person in (BOB, CARL, DORA):
        await telegram.say(person, GROUP, "/tournament join")
    await telegram.say(ANNA, GROUP, "/tournament start")


def announcements(telegram: Harness, topic: int | None) -> list[Stored]:
    return [
        s
        for s in telegram.api.in_topic(GROUP, topic)
        if ANNOUNCED in s.data.get("text", "") and s.data.get("reply_markup")
    ]


async def _pairings(telegram: Harness) -> list[TournamentMatchRecord]:
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    assert chat is not None
    tournament = await telegram.stores.tournaments.latest_in_chat(chat.id)
    assert tournament is not None
    return list((await telegram.stores.tournaments.snapshot(tournament.id)).matches)


async def _play(
    telegram: Harness, players: tuple[dict[str, Any], ...], topic: int
) -> set[tuple[int, int | None]]:
    """The players' match in the topic, typed there to its end: where the bot sent messages
    meanwhile (in the group and its topics)."""
    chat = await telegram.stores.chats.find_chat("telegram", f"{GROUP}:{topic}")
    first = await telegram.stores.users.find_user("telegram", str(players[0]["id"]))
    assert chat is not None
    assert first is not None
    rng = random.Random(39)
    sent: set[tuple[int, int | None]] = set()
    for _step in range(2000):
        turn = await next_turn(telegram.stores, chat.id, first.id, rng)
        if turn is None:
            return sent
        mover = PEOPLE[(await telegram.stores.users.get_user(turn[0])).platform_user_id]
        sent |= sent_to(await telegram.say(mover, GROUP, turn[1], topic=topic))
    raise AssertionError("the match did not end")


async def test_a_pairing_plays_in_a_topic_of_its_own_and_its_news_go_to_the_group(
    bot: Process,
) -> None:
    telegram = bot.harness
    assert telegram is not None
    api = bot.api
    api.forums.add(GROUP)
    await _open_four(telegram)
    created = api.of("createForumTopic")
    assert [call.params["chat_id"] for call in created] == [GROUP, GROUP]
    assert [call.params["name"] for call in created] == [
        "semifinal 1 · Anna – Dora",
        "semifinal 2 · Bob – Carl",
    ]
    topics = sorted(thread for (chat, thread) in api.topics if chat == GROUP)
    assert announcements(telegram, None) == []  # no [Start] in the group itself
    first, second = (announcements(telegram, topic) for topic in topics)
    assert len(first) == len(second) == 1
    general = "\n".join(s.data.get("text", "") for s in api.in_topic(GROUP, None))
    assert f"Cup, semifinal 1: Anna vs Dora play in their thread: {TOPIC_LINK}{topics[0]}" in (
        general
    )
    assert f"{TOPIC_LINK}{topics[1]}" in general
    pairings = await _pairings(telegram)
    for pairing, topic in zip(pairings, topics, strict=True):
        thread_chat = await telegram.stores.chats.find_chat("telegram", f"{GROUP}:{topic}")
        assert thread_chat is not None
        assert pairing.thread_chat_id == thread_chat.id

    # The second semifinal's [Start], pressed in the first one's topic: refused.
    carl = pairing_players(second[0])[1]
    wrong = await telegram.press(carl, GROUP, first[0].data["message_id"], start_data(second[0]))
    (toast,) = [call for call in wrong if call.method == "answerCallbackQuery"]
    assert "starts where it was announced" in toast.params["text"]
    assert (await _pairings(telegram))[1].match_id is None

    players = pairing_players(first[0])
    started = await telegram.press(
        players[1], GROUP, first[0].data["message_id"], start_data(first[0])
    )
    assert sent_to(started) == {(GROUP, topics[0])}  # the match begins in the topic
    assert await _play(telegram, players, topics[0]) == {(GROUP, topics[0])}

    players = pairing_players(second[0])
    await telegram.press(players[1], GROUP, second[0].data["message_id"], start_data(second[0]))
    mark = len(api.calls)
    sent = await _play(telegram, players, topics[1])
    # Its end made the final known: a new topic for it, the line in the group.
    after = api.calls[mark:]
    (final_topic,) = [call.params["name"] for call in after if call.method == "createForumTopic"]
    assert final_topic.startswith("the final · ")
    final = max(thread for (chat, thread) in api.topics if chat == GROUP)
    assert len(announcements(telegram, final)) == 1
    pointer = [
        call.params["text"]
        for call in after
        if call.method == "sendMessage" and "play in their thread" in call.params["text"]
    ]
    assert pointer == [pointer[0]]
    assert f"{TOPIC_LINK}{final}" in pointer[0]
    # The match in its topic, the final's announcement in its own, the line in the group.
    assert sent == {(GROUP, topics[1]), (GROUP, final), (GROUP, None)}


async def test_without_the_right_to_manage_topics_pairings_are_announced_in_the_group(
    telegram: Harness,
) -> None:
    api = telegram.api
    api.forums.add(GROUP)
    api.cannot_manage_topics.add(GROUP)
    await _open_four(telegram)
    assert len(api.of("createForumTopic")) == 2  # asked, refused
    assert len(announcements(telegram, None)) == 2
    assert all(pairing.thread_chat_id is None for pairing in await _pairings(telegram))


async def test_a_group_that_is_no_forum_is_asked_for_a_topic_once(telegram: Harness) -> None:
    await _open_four(telegram)
    assert len(telegram.api.of("createForumTopic")) == 1  # "the chat is not a forum"
    assert len(announcements(telegram, None)) == 2


async def test_threads_off_keeps_the_pairings_in_the_group(telegram: Harness) -> None:
    api = telegram.api
    api.forums.add(GROUP)
    api.admins.add((GROUP, ANNA["id"]))
    opened = await telegram.say(ANNA, GROUP, '/tournament new 1 threads=off "Cup"')
    assert "matches in this chat, not in threads" in str(opened)
    for person in (BOB, CARL, DORA):
        await telegram.say(person, GROUP, "/tournament join")
    await telegram.say(ANNA, GROUP, "/tournament start")
    assert api.of("createForumTopic") == []
    assert len(announcements(telegram, None)) == 2


async def test_running_the_tournament_from_a_pairings_topic_points_to_the_group(
    telegram: Harness,
) -> None:
    """A pairing's topic is a chat of its own, without a tournament of its own: a command that
    runs the tournament, typed there, is told to go to the group (it was told that there is no
    tournament in this chat), and does nothing."""
    api = telegram.api
    api.forums.add(GROUP)
    await _open_four(telegram)
    topic = min(thread for (chat, thread) in api.topics if chat == GROUP)
    for person, command in ((DORA, "/tournament withdraw"), (ANNA, "/tournament pause")):
        answered = await telegram.say(person, GROUP, command, topic=topic)
        (said,) = [call.params["text"] for call in answered if call.method == "sendMessage"]
        assert "There is no tournament" not in said
        assert "Cup is run from the chat it was opened in" in said
        assert sent_to(answered) == {(GROUP, topic)}
    pairings = await _pairings(telegram)
    assert all(not pairing.decided for pairing in pairings)
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    assert chat is not None
    (live,) = await telegram.stores.tournaments.live_in_chat(chat.id)
    assert live.status.value == "running"


async def test_a_tournament_opened_in_a_topic_gives_each_pairing_a_topic_of_its_own(
    telegram: Harness,
) -> None:
    """Topics are not nested: a tournament run in a forum's topic (a "Club" topic rather than
    General) opens its pairings' topics in the group, as one run in General does, with the
    lines that lead to them in its own topic (its pairings did not flood it)."""
    api = telegram.api
    api.forums.add(GROUP)
    club = api._create_forum_topic({"chat_id": GROUP, "name": "Club"}, {})["message_thread_id"]
    api.admins.add((GROUP, ANNA["id"]))
    await telegram.say(ANNA, GROUP, '/tournament new 1 "Cup"', topic=club)
    for person in (BOB, CARL, DORA):
        await telegram.say(person, GROUP, "/tournament join", topic=club)
    await telegram.say(ANNA, GROUP, "/tournament start", topic=club)
    created = api.of("createForumTopic")
    assert [call.params["chat_id"] for call in created] == [GROUP, GROUP]
    assert [call.params["name"] for call in created] == [
        "semifinal 1 · Anna – Dora",
        "semifinal 2 · Bob – Carl",
    ]
    topics = sorted(thread for (chat, thread) in api.topics if chat == GROUP and thread != club)
    assert announcements(telegram, club) == []
    assert [len(announcements(telegram, topic)) for topic in topics] == [1, 1]
    lines = "\n".join(s.data.get("text", "") for s in api.in_topic(GROUP, club))
    assert f"Cup, semifinal 1: Anna vs Dora play in their thread: {TOPIC_LINK}{topics[0]}" in lines
    assert f"Cup, semifinal 2: Bob vs Carl play in their thread: {TOPIC_LINK}{topics[1]}" in lines
    for topic in topics:  # both semifinals, each in its topic: the final's news in the club's
        (announcement,) = announcements(telegram, topic)
        players = pairing_players(announcement)
        message_id = announcement.data["message_id"]
        await telegram.press(players[1], GROUP, message_id, start_data(announcement))
        await _play(telegram, players, topic)
    final = max(thread for (chat, thread) in api.topics if chat == GROUP)
    assert api.topics[(GROUP, final)].startswith("the final · ")
    assert len(announcements(telegram, final)) == 1
    lines = "\n".join(s.data.get("text", "") for s in api.in_topic(GROUP, club))
    assert "Cup, the final: " in lines
    assert f"play in their thread: {TOPIC_LINK}{final}" in lines
    assert api.in_topic(GROUP, None) == []
