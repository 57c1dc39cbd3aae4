"""A tournament advances inside the transaction that ends one of its matches
(bot/core/tournament/advance.py): the result in its slot, the pairings it decides, the end;
two of its matches ending at the same moment (two processes) pair the next match once."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial

import pytest

from bot.core.tournament.advance import advance_locked, advance_tournament
from bot.core.tournament.seasons import season_divisions
from bot.core.tournament.seeding import divisions
from gammon.actions import WinKind
from gammon.flow import GameResult, MatchState, Phase, new_match
from gammon.match_rules import MatchRules
from storage import (
    ChatRepository,
    Database,
    MatchRepository,
    SecretSeed,
    TournamentRecord,
    TournamentRepository,
    TournamentSnapshot,
    TournamentStatus,
    UserRepository,
)
from storage.direct import DirectConnection
from storage.transaction import Transaction
from tests.storage.pauses import pause_after_first_statement

MOMENT = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


@dataclass
class Club:
    database: Database
    tournaments: TournamentRepository
    chat_id: int
    players: list[int]  # seed order


@pytest.fixture
async def club(migrated_url: str) -> AsyncIterator[Club]:
    database = Database(migrated_url)
    users = UserRepository(database)
    names = ["Anna", "Bob", "Cleo", "Dan", "Eve"]
    players = [
        (await users.upsert_user("telegram", str(3000 + n), name)).id
        for n, name in enumerate(names)
    ]
    chat = await ChatRepository(database).upsert_chat("telegram", "-800")
    yield Club(database, TournamentRepository(database), chat.id, players)
    await database.close()


async def _running(club: Club, players: list[int], format: dict[str, object]) -> TournamentRecord:
    opened = await club.tournaments.create(
        chat_id=club.chat_id,
        organiser_id=players[0],
        name="Cup",
        format=format,
        lengths={"default": 5, "by_stage": {"final": 7}},
        rules=MatchRules(length=5).to_dict(),
        seeding="rating",
        seed=SecretSeed(os.urandom(32)),
        moment=MOMENT,
    )
    for player in players:
        await club.tournaments.join(opened.id, player, MOMENT)
    await club.tournaments.start(
        opened.id,
        opened.version,
        players,
        [],
        MOMENT,
        then=lambda transaction: _advance(transaction, opened.id),
    )
    return opened


def _advance(transaction: Transaction, tournament_id: int) -> None:
    advance_locked(transaction, tournament_id)


def _record(
    tournament_id: int, slot: str, players: tuple[int, int], connection: DirectConnection
) -> None:
    """``players`` (winner, loser) played the slot 1–0, and the tournament advances."""
    transaction = Transaction(connection, MOMENT)
    transaction.record_tournament_result(tournament_id, slot, players, (1, 0))
    advance_locked(transaction, tournament_id)


def _won_by(winner: int, score: tuple[int, int]) -> MatchState:
    """A finished match's state: player ``winner`` (0 or 1) won it at ``score``."""
    game = GameResult(1, winner, score[winner], WinKind.SINGLE, "bear_off", 1, score, False)
    start = new_match(MatchRules(length=5))
    return replace(start, phase=Phase.FINISHED, score=score, games=(game,))


async def _finish(
    database: Database, match_id: int, players: tuple[int, int], state: MatchState
) -> None:
    def write(connection: DirectConnection) -> None:
        advance_tournament(match_id, players, state, Transaction(connection, MOMENT))

    await database.engine.write(write)


async def _start_slot(club: Club, database: Database, tournament_id: int, slot: str) -> int:
    """Start the slot's match (each in a chat of its own: the seats do not matter here)."""
    snapshot = await club.tournaments.snapshot(tournament_id)
    (paired,) = [match for match in snapshot.matches if match.slot == slot]
    chat = await ChatRepository(database).upsert_chat("telegram", f"-9{slot}")
    started = await MatchRepository(database).start_match(
        chat_id=chat.id,
        player_ids=paired.player_ids,
        rules=MatchRules(length=paired.length),
        client_seeds=("x", "y"),
        seed=SecretSeed(os.urandom(32)),
        tournament_slot=(tournament_id, slot),
    )
    return started.match.info.id


def _paired(snapshot: TournamentSnapshot) -> dict[str, tuple[tuple[int, int], int]]:
    return {match.slot: (match.player_ids, match.length) for match in snapshot.matches}


async def test_a_knockout_of_four_plays_to_its_winner(club: Club) -> None:
    anna, bob, cleo, dan = club.players[:4]
    opened = await _running(club, [anna, bob, cleo, dan], {"kind": "single"})
    first = await club.tournaments.snapshot(opened.id)
    # Seeds 1 v 4 and 2 v 3, the final at its own length (by hand: a bracket of four).
    assert _paired(first) == {"main-1-1": ((anna, dan), 5), "main-1-2": ((bob, cleo), 5)}

    semi_one = await _start_slot(club, club.database, opened.id, "main-1-1")
    semi_two = await _start_slot(club, club.database, opened.id, "main-1-2")
    await _finish(club.database, semi_one, (anna, dan), _won_by(1, (3, 5)))  # Dan wins
    after_one = await club.tournaments.snapshot(opened.id)
    assert "main-2-1" not in _paired(after_one)  # the final waits for its second player
    await _finish(club.database, semi_two, (bob, cleo), _won_by(0, (5, 4)))  # Bob wins
    after_two = await club.tournaments.snapshot(opened.id)
    assert _paired(after_two)["main-2-1"] == ((dan, bob), 7)
    decided = {m.slot: (m.winner_id, m.winner_points, m.loser_points) for m in after_two.matches}
    assert decided["main-1-1"] == (dan, 5, 3)
    assert decided["main-1-2"] == (bob, 5, 4)

    final = await _start_slot(club, club.database, opened.id, "main-2-1")
    await _finish(club.database, final, (dan, bob), _won_by(1, (2, 7)))
    ended = await club.tournaments.get(opened.id)
    assert ended.status is TournamentStatus.FINISHED
    assert ended.winner_id == bob


async def test_a_match_outside_tournaments_changes_nothing(club: Club) -> None:
    anna, bob = club.players[:2]
    started = await MatchRepository(club.database).start_match(
        chat_id=club.chat_id,
        player_ids=(anna, bob),
        rules=MatchRules(length=5),
        client_seeds=("x", "y"),
        seed=SecretSeed(os.urandom(32)),
    )
    await _finish(club.database, started.match.info.id, (anna, bob), _won_by(0, (5, 0)))


async def test_a_withdrawn_players_next_match_is_a_walkover(club: Club) -> None:
    anna, bob, cleo, dan = club.players[:4]
    opened = await _running(club, [anna, bob, cleo, dan], {"kind": "single"})
    semi_one = await _start_slot(club, club.database, opened.id, "main-1-1")
    await _finish(club.database, semi_one, (anna, dan), _won_by(0, (5, 1)))  # Anna wins
    await club.tournaments.withdraw(
        opened.id, anna, MOMENT, then=lambda transaction: _advance(transaction, opened.id)
    )
    semi_two = await _start_slot(club, club.database, opened.id, "main-1-2")
    await _finish(club.database, semi_two, (bob, cleo), _won_by(1, (0, 5)))  # Cleo wins
    ended = await club.tournaments.snapshot(opened.id)
    (final,) = [match for match in ended.matches if match.slot == "main-2-1"]
    assert final.walkover is True
    assert (final.winner_id, final.loser_id) == (cleo, anna)
    assert (final.winner_points, final.loser_points) == (7, 0)  # the final's length to nothing
    assert ended.tournament.winner_id == cleo


@pytest.mark.both_databases
async def test_two_matches_ending_at_once_pair_the_next_once(migrated_url: str, club: Club) -> None:
    anna, bob, cleo, dan = club.players[:4]
    opened = await _running(club, [anna, bob, cleo, dan], {"kind": "single"})
    semi_one = await _start_slot(club, club.database, opened.id, "main-1-1")
    semi_two = await _start_slot(club, club.database, opened.id, "main-1-2")
    other = Database(migrated_url)  # a second process
    try:
        # The first pauses once it has read the tournament's matches (its own result in, the
        # other's not): the second writes its result meanwhile and must wait for the first's
        # lock to read the tournament, or each would see only its own result and neither
        # would pair the final.
        after_reading = "ORDER BY tournament_matches.id"
        paused = pause_after_first_statement(club.database, after_reading, 0.5)
        first = asyncio.create_task(
            _finish(club.database, semi_one, (anna, dan), _won_by(0, (5, 2)))
        )
        await asyncio.get_running_loop().run_in_executor(None, paused.wait, 10)
        await _finish(other, semi_two, (bob, cleo), _won_by(0, (5, 3)))
        await first
    finally:
        await other.close()
    ended = await club.tournaments.snapshot(opened.id)
    finals = [match for match in ended.matches if match.slot == "main-2-1"]
    assert [final.player_ids for final in finals] == [(anna, bob)]


async def test_a_leagues_next_season_promotes_and_relegates(club: Club) -> None:
    users = UserRepository(club.database)
    players = [
        (await users.upsert_user("telegram", str(4000 + n), f"P{n}")).id for n in range(1, 12)
    ]
    ten, newcomer = players[:10], players[10]
    opened = await club.tournaments.create(
        chat_id=club.chat_id,
        organiser_id=ten[0],
        name="League",
        format={"kind": "league", "promoted": 2, "relegated": 2},
        lengths={"default": 1},
        rules=MatchRules(length=1).to_dict(),
        seeding="rating",
        seed=SecretSeed(os.urandom(32)),
        moment=MOMENT,
    )
    for player in ten:
        await club.tournaments.join(opened.id, player, MOMENT)
    placed = divisions(ten)  # eight and two
    assert sorted(placed.values()) == [1] * 8 + [2] * 2
    await club.tournaments.start(
        opened.id,
        opened.version,
        ten,
        [],
        MOMENT,
        divisions=placed,
        then=lambda transaction: _advance(transaction, opened.id),
    )
    rank = {player: place for place, player in enumerate(ten)}
    while True:  # the better seed wins every match
        snapshot = await club.tournaments.snapshot(opened.id)
        waiting = [match for match in snapshot.matches if not match.decided]
        if not waiting:
            break
        for match in waiting:
            winner, loser = sorted(match.player_ids, key=rank.__getitem__)
            await club.database.engine.write(
                partial(_record, opened.id, match.slot, (winner, loser))
            )
    finished = await club.tournaments.snapshot(opened.id)
    assert finished.tournament.status is TournamentStatus.FINISHED
    order, division = season_divisions(finished, [*ten, newcomer])
    # By hand: division 1 finishes 1..8, division 2 finishes 9, 10. The bottom two of the
    # top division go down, both of division 2 go up, the newcomer starts at the bottom.
    p = players
    assert order == [p[0], p[1], p[2], p[3], p[4], p[5], p[8], p[9], p[6], p[7], newcomer]
    assert [division[player] for player in order] == [1] * 8 + [2] * 3
