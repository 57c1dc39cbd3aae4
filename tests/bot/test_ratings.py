"""Ratings, /stats and /top through the command layer: what is rated and what is not, the
match end's rating line, statistics in two chats, the leaderboard and the rebuild."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.model import ChatRef
from bot.core.service import Core
from gammon.flow import Phase
from gammon.rating import rate
from storage import Database
from tests.bot.scripted import PLATFORM, Room, play_to_the_end
from tests.seeds import fixed_seeds

RESIGNATIONS = {1: "single", 2: "gammon", 3: "backgammon"}


async def _resign_at_once(room: Room, length: int = 1) -> list[str]:
    """Anna challenges Bob to a match of ``length`` (1 to 3) points; Bob (who opens with the
    fixed seeds) at once offers to resign what ends it, and Anna accepts: the texts of the
    end."""
    await room.command("anna", f"/challenge @bob {length}")
    await room.press("bob", "Accept")
    await _until_bob_is_to_play(room)
    await room.command("bob", f"/resign {RESIGNATIONS[length]}")
    await room.press("bob", "Resign")
    return [message.text for message in await room.press("anna", "Accept")]


async def _until_bob_is_to_play(room: Room) -> None:
    """Anna rolls and plays the first legal play while it is her turn."""
    for _ in range(10):
        loaded = await room.match_of("anna")
        assert loaded is not None
        state = loaded.state
        anna = loaded.info.player_ids.index(
            (await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")).id
        )
        if state.turn != anna:
            return
        if state.phase is Phase.ROLLING:
            await room.command("anna", "/roll")
        else:
            await room.command("anna", f"/move {state.legal_plays()[0]}")
    raise AssertionError("Bob never came to play")


async def test_a_resigned_match_is_rated_and_its_end_shows_the_ratings(room: Room) -> None:
    # Two new players, 1 point: 4 * sqrt(1) * 0.5 = 2 points, times 5 for newcomers.
    end = await _resign_at_once(room)
    assert any("Match over: Anna wins 1–0." in text for text in end)
    assert any("Ratings: Anna 1,510.0 (+10.0) · Bob 1,490.0 (−10.0)" in text for text in end)
    stats = (await room.command("bob", "/stats"))[0].text
    assert "Rating 1,490.0 · experience 1" in stats
    assert "Everywhere: 1 played, 0 won, 1 lost" in stats
    assert "Played most: Anna (1)" in stats


async def test_an_unrated_match_counts_in_the_statistics_but_changes_no_rating(
    room: Room,
) -> None:
    offer = await room.command("anna", "/challenge @bob 1 unrated")
    assert "unrated" in offer[0].text
    await room.press("bob", "Accept")
    await room.command("bob", "/resign")
    await room.press("bob", "Resign")
    end = await room.press("anna", "Accept")
    assert not any("Ratings:" in message.text for message in end)
    stats = (await room.command("anna", "/stats"))[0].text
    assert "Rating 1,500.0 · experience 0" in stats
    assert "Everywhere: 1 played, 1 won, 0 lost" in stats


async def test_stats_of_a_player_who_never_played(room: Room) -> None:
    stats = (await room.command("carl", "/stats"))[0].text
    assert stats.splitlines() == [
        "Carl — backgammon",
        "Rating 1,500.0 · experience 0",
        "No finished match yet.",
    ]
    nardy = (await room.command("carl", "/stats nardy"))[0].text
    assert nardy.splitlines()[0] == "Carl — long nardy"
    board = (await room.command("carl", "/top all nardy"))[0].text
    assert board.splitlines()[0] == "Top 10 · long nardy · everyone"
    unknown = await room.command("carl", "/stats @nobody")
    assert unknown[0].text == "I do not know that player yet."
    assert unknown[0].private_to == "carl"


async def test_a_player_in_two_chats(room: Room) -> None:
    await _resign_at_once(room)
    other = Room(room.core, ChatRef(PLATFORM, "group-2"))
    await _resign_at_once(other, 3)
    # 1,510.0 vs 1,490.0 over 3 points: D = 20, P_upset = 1 / (10^(20·√3/2000) + 1) = 0.49003;
    # Anna wins as the favourite: 4·√3·0.49003 = 3.39503, times 4.99 (1 point of experience)
    # = +16.94.
    here = (await room.command("anna", "/stats @bob"))[0].text
    assert "In this chat: 1 played, 0 won, 1 lost" in here
    assert "Everywhere: 2 played, 0 won, 2 lost" in here
    anna = (await other.command("anna", "/stats"))[0].text
    assert "Rating 1,526.9 · experience 4" in anna
    assert "Winning streak: 2 now, 2 at best" in anna
    lines = anna.splitlines()
    everywhere = lines.index("Everywhere: 2 played, 2 won, 0 lost")
    assert lines[everywhere + 1] == "  Games won: 1 single, 0 gammon, 1 backgammon; lost: 0"
    here_at = lines.index("In this chat: 1 played, 1 won, 0 lost")
    assert lines[here_at + 1] == "  Games won: 0 single, 0 gammon, 1 backgammon; lost: 0"
    assert lines[here_at + 3] == "  Winning streak: 1 now, 1 at best"


async def test_the_leaderboard_needs_experience_and_names_your_place(room: Room) -> None:
    await _resign_at_once(room)
    early = (await room.command("anna", "/top"))[0]
    assert early.image is not None
    assert early.text.splitlines() == [
        "Top 10 · backgammon · this chat",
        "Nobody has played 10 points of rated matches yet.",
        "A place here needs 10 points of rated matches; Anna has 1.",
    ]
    for _ in range(3):
        await _resign_at_once(room, 3)
    # 1 + 3 + 3 + 3 points, worked out by hand as in tests/gammon/test_rating.py.
    board = (await room.command("bob", "/top"))[0].text.splitlines()
    assert board == [
        "Top 10 · backgammon · this chat",
        "1. Anna — 1,558.8 · experience 10",
        "2. Bob — 1,441.2 · experience 10",
    ]
    elsewhere = Room(room.core, ChatRef(PLATFORM, "group-9"))
    assert "Nobody has played" in (await elsewhere.command("carl", "/top"))[0].text
    everyone = (await elsewhere.command("carl", "/top all"))[0].text.splitlines()
    assert everyone[0] == "Top 10 · backgammon · everyone"
    assert everyone[1].startswith("1. Anna")


async def test_random_matches_rebuild_to_the_stored_ratings(room: Room) -> None:
    for seed in range(3):
        await room.command("anna", "/challenge @bob 1")
        await room.press("bob", "Accept")
        await play_to_the_end(room, ("anna", "bob"), seed)
    assert "Everywhere: 3 played" in (await room.command("anna", "/stats"))[0].text
    report = await room.stores.ratings.rebuild(rate)
    assert report.identical, report.examples
    assert report.matches == 3


async def test_a_forfeit_by_time_is_rated(migrated_url: str) -> None:
    database = Database(migrated_url)
    now = [datetime.now(UTC)]
    core = Core(database, render_images=False, server_seeds=fixed_seeds())
    core.clock = lambda: now[0]
    room = Room(core, ChatRef(PLATFORM, "group"))
    try:
        await room.command("anna", "/challenge @bob 3 time=4h")
        await room.press("bob", "Accept")  # Bob opens and then lets his time run out
        now[0] += timedelta(hours=5)
        room.log.extend(await core.ports.clock.tick())
        claimed = await room.press("anna", "Claim win")
        texts = [message.text for message in claimed]
        assert any("ran out of time" in text for text in texts)
        # 3 points between newcomers: 4·√3·0.5·5 = 17.32.
        assert any("Ratings: Anna 1,517.3 (+17.3) · Bob 1,482.7 (−17.3)" in t for t in texts)
    finally:
        await database.close()
