"""What the whole-tournament tests (issue 39) share on every platform: the typed turn a player
takes next in a tournament match, a process that stops before announcing a match's news, and
the checks of a finished knockout and round robin (read from the database, the players'
statistics and the end the chat was told), so the console, the Discord and the Telegram runs
assert the same things."""

from __future__ import annotations

import random
import re
from collections import Counter

from bot.core.bootstrap import Repositories
from bot.core.model import Message
from gammon.flow import Phase
from storage import TournamentSnapshot

# 8 players: main bracket 4 + 2 + 1 matches, consolation (the round-1 losers) 2 + 1.
KNOCKOUT_SLOTS = {
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


async def next_turn(
    stores: Repositories, chat_id: int, player_id: int, rng: random.Random
) -> tuple[int, str] | None:
    """Who types what next in the match ``player_id`` plays in the chat: /roll, or a random
    legal /move (people read whose turn it is from the board; the tests read it from the
    database instead). None once the match has ended."""
    loaded = await stores.matches.active_match_for(chat_id, player_id)
    if loaded is None:
        return None
    state = loaded.state
    actor = state.turn if state.turn is not None else state.player_on_roll
    mover = loaded.info.player_ids[actor]
    if state.phase is Phase.ROLLING:
        return mover, "/roll"
    if state.phase is Phase.MOVING:
        return mover, f"/move {rng.choice(state.legal_plays())}"
    raise AssertionError(f"unexpected phase {state.phase}")


async def _counted_once(stores: Repositories, snapshot: TournamentSnapshot) -> None:
    """Every player's statistics in the chat count each of their tournament matches once,
    whichever process finished it."""
    for player in snapshot.seeded:
        mine = [m for m in snapshot.matches if player in m.player_ids]
        counted = await stores.results.statistics(player, "backgammon", snapshot.tournament.chat_id)
        assert counted.played == len(mine)
        assert counted.matches_won == len([m for m in mine if m.winner_id == player])


async def check_knockout_end(stores: Repositories, tournament_id: int, end: str) -> None:
    """Eight players' single elimination with a consolation, over: every slot played once,
    in a match of its own, the final's winner the tournament's, the consolation among the
    first round's losers, and the end told with both finals and the winner."""
    snapshot = await stores.tournaments.snapshot(tournament_id)
    played = {match.slot: match for match in snapshot.matches}
    assert set(played) == KNOCKOUT_SLOTS
    assert all(m.decided and not m.walkover and m.match_id for m in played.values())
    assert len({m.match_id for m in played.values()}) == 10  # each counted once
    final = played["main-3-1"]
    assert snapshot.tournament.winner_id == final.winner_id
    consolation = played["consolation-2-1"]
    first_round_losers = {played[f"main-1-{i}"].loser_id for i in range(1, 5)}
    assert set(consolation.player_ids) <= first_round_losers
    name = {user: (await stores.users.get_user(user)).display_name for user in snapshot.seeded}
    # A 1-point match won by a gammon or backgammon counts 2 or 3 points.
    final_line = f"the final: {name[final.winner_id]} beat {name[final.loser_id]} "
    assert re.search(f"^{final_line}[123]–0$", end, re.MULTILINE)
    consolation_line = (
        f"consolation, round 2, match 1: {name[consolation.winner_id]} beat "
        f"{name[consolation.loser_id]} "
    )
    assert re.search(f"^{consolation_line}[123]–0$", end, re.MULTILINE)
    assert end.count(" beat ") == 10  # every match once
    assert f"Winner: {name[final.winner_id]}" in end
    await _counted_once(stores, snapshot)


async def check_round_robin_end(stores: Repositories, tournament_id: int, end: str) -> None:
    """Six players' round robin, over: every pair met once, in a match of its own, and the
    end told with all 15 results, the table of six and its leader as the winner."""
    snapshot = await stores.tournaments.snapshot(tournament_id)
    met = Counter(frozenset(match.player_ids) for match in snapshot.matches)
    assert len(met) == 15  # C(6, 2)
    assert set(met.values()) == {1}
    assert all(m.decided and not m.walkover and m.match_id for m in snapshot.matches)
    assert len({m.match_id for m in snapshot.matches}) == 15
    wins = Counter(m.winner_id for m in snapshot.matches)
    assert end.count(" beat ") == 15
    table = end.split("Table:\n")[1].rstrip("\n").split("\n")
    assert len(table) == 7  # six places and the winner
    winner = await stores.users.get_user(snapshot.tournament.winner_id or 0)
    assert table[0].startswith(f"1. {winner.display_name}: {wins[winner.id]} points, ")
    assert wins[winner.id] == max(wins.values())
    assert table[-1] == f"Winner: {winner.display_name}"
    await _counted_once(stores, snapshot)


async def nothing_announced(_context: object, _tournament_id: int) -> list[Message]:
    """An old process that stops between writing a match's end (its new pairings with it)
    and announcing them."""
    return []
