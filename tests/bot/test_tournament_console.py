"""A whole tournament through the console (issue 39): eight players, single elimination with
a consolation, opened by an administrator named with ``admins=``, registered with [Join] and
/tournament join, started, each pairing started with its [Start] and its 1-point match played
with typed /roll and /move lines, down to the final's winner and the consolation's final."""

from __future__ import annotations

import io
import random

from bot.console_app.chat import PLATFORM, ConsoleChat
from gammon.flow import Phase
from tests.bot.scripted import Room

PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")
# 8 players: main bracket 4 + 2 + 1 matches, consolation (the round-1 losers) 2 + 1.
SLOTS = {
    "main-1-1",
    "main-1-2",
    "main-1-3",
    "main-1-4",
    "main-2-1",
    "main-2-2",
    "main-3-1",
    "consolation-1-1",
    "consolation-1-2",
    "consolation-2-1",
}


class ConsolePlayers:
    """Console users who type their turns: /roll, and a random legal /move (the bot's
    messages say whose turn it is; the test reads it from the database instead of parsing
    boards)."""

    def __init__(self, room: Room, chat: ConsoleChat, seed: int) -> None:
        self.room = room
        self.chat = chat
        self.rng = random.Random(seed)

    async def play(self, names: tuple[str, str], limit: int = 2000) -> None:
        stores = self.room.stores
        chat = await stores.chats.upsert_chat(PLATFORM, "main")
        users = {name: await stores.users.upsert_user(PLATFORM, name, name) for name in names}
        for _step in range(limit):
            loaded = await stores.matches.active_match_for(chat.id, users[names[0]].id)
            if loaded is None or users[names[1]].id not in loaded.info.player_ids:
                return
            state = loaded.state
            actor = state.turn if state.turn is not None else state.player_on_roll
            name = names[0] if loaded.info.player_ids[actor] == users[names[0]].id else names[1]
            if state.phase is Phase.ROLLING:
                await self.chat.line(f"{name}: /roll")
            elif state.phase is Phase.MOVING:
                await self.chat.line(f"{name}: /move {self.rng.choice(state.legal_plays())}")
            else:
                raise AssertionError(f"unexpected phase {state.phase}")
        raise AssertionError("the match did not end")


def _announced(text: str) -> list[tuple[str, str]]:
    """The pairings announced in the console's output, in order: the mentions above each
    announcement with [Start]."""
    pairs: list[tuple[str, str]] = []
    blocks = text.split("[bot → #main]")
    for block in blocks:
        if "Commitment to its dice" in block and "[Start]" in block:
            first, second = block.split("\n", 1)[0].split()
            pairs.append((first.lstrip("@"), second.lstrip("@")))
    return pairs


async def test_eight_players_play_a_knockout_with_consolation_through_the_console(
    room: Room,
) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output, session="cup-", admins=["ann"])
    await chat.line('bob: /tournament new single consolation 1 "Cup"')
    assert "Only an administrator of the chat opens a tournament." in output.getvalue()
    await chat.line('ann: /tournament new single consolation 1 "Cup"')
    assert "Cup: single elimination" in output.getvalue()
    for name in PLAYERS[1:4]:
        await chat.line(f"{name}: [Join]")
    for name in PLAYERS[4:]:
        await chat.line(f"{name}: /tournament join")
    assert "Registered (8): ann, bob, cy, dee, eve, fay, gus, hal" in output.getvalue()
    await chat.line("ann: /tournament start")
    assert "Cup has begun. Seeds: 1. ann, 2. bob" in output.getvalue()
    where = await room.stores.chats.upsert_chat(PLATFORM, "main")
    (running,) = await room.stores.tournaments.live_in_chat(where.id)

    players = ConsolePlayers(room, chat, seed=39)
    started: list[tuple[str, str]] = []
    for _round in range(10):
        waiting = [pair for pair in _announced(output.getvalue()) if pair not in started]
        if not waiting:
            break
        for pair in waiting:
            before = len(output.getvalue())
            await chat.line(f"{pair[1]}: [Start]")
            assert "match" in output.getvalue()[before:]
            assert "Only the two players" not in output.getvalue()[before:]
            started.append(pair)
            await players.play(pair)
    text = output.getvalue()
    assert len(started) == len(SLOTS)  # every pairing announced once, and started once
    assert len(set(started)) == len(started)

    assert await room.stores.tournaments.live_in_chat(where.id) == []
    snapshot = await room.stores.tournaments.snapshot(running.id)
    tournament = snapshot.tournament
    played = {match.slot: match for match in snapshot.matches}
    assert set(played) == SLOTS
    assert all(m.decided and not m.walkover and m.match_id for m in played.values())
    assert len({m.match_id for m in played.values()}) == len(SLOTS)  # each counted once
    final = played["main-3-1"]
    assert tournament.winner_id == final.winner_id
    names = {
        user: (await room.stores.users.get_user(user)).display_name for user in final.player_ids
    }
    consolation = played["consolation-2-1"]
    first_round_losers = {played[f"main-1-{i}"].loser_id for i in range(1, 5)}
    assert set(consolation.player_ids) <= first_round_losers

    (end,) = text.split("Cup is over.\n")[1:]
    assert f"the final: {names[final.winner_id]} beat {names[final.loser_id]} 1–0" in end
    assert "consolation, round 2, match 1: " in end
    assert f"Winner: {names[final.winner_id]}" in end
    await chat.line("bob: /tournament")  # afterwards: its outcome, as the end told it
    assert f"Winner: {names[final.winner_id]}" in output.getvalue()[len(text) :]
