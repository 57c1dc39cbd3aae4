"""Our ``.mat`` files read by GNU Backgammon 1.07, and gnubg's own files of them read by us.

The corpus (:mod:`tests.gammon.mat_corpus`) holds every way a game ends. gnubg imports our
export of each match, counts its score and writes the match out again, all in one run
(:mod:`tests.gammon.gnubg_runner`; skipped without gnubg, unless
``GAMMONBOT_GNUBG_TESTS=required``). gnubg's file is read on its own terms
(:func:`tests.gammon.mat_events.events_of_gnubg`) and must show our games event for event:
every roll with the board after its play, every double, beaver, take and drop, every game's
points, and gnubg's own count of the games and the final score. Then our reader reads gnubg's
file and must replay the same match.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gammon.actions import Move
from gammon.flow import MatchState, replay
from gammon.mat_format import export_mat, read_mat
from gammon.match_rules import MatchRules
from tests.gammon.gnubg_runner import GnubgReading, read_by_gnubg
from tests.gammon.mat_corpus import SESSIONS, endings, play
from tests.gammon.mat_events import Event, events_of_gnubg, events_of_log, same_games

NAMES = ("Alice", "Bob")

EVERY_ENDING = {
    "drop by 0",
    "drop by 1",
    "beaver by 0",
    "beaver by 1",
    "resign 1",
    "resign 2",
    "resign 3",
    *(
        f"the {who} resigns {when} a roll of player {player}"
        for who in ("roller", "other")
        for when in ("before", "after")
        for player in (0, 1)
    ),
    "a resignation after a forced roll",
    "crawford",
    "jacoby",
    "bear-off",
    "gammon",
    "backgammon",
}


@pytest.fixture(scope="module")
def corpus() -> list[MatchState]:
    return [play(session) for session in SESSIONS]


@pytest.fixture(scope="module")
def readings(
    corpus: list[MatchState], tmp_path_factory: pytest.TempPathFactory
) -> list[GnubgReading]:
    texts = [export_mat(state, NAMES) for state in corpus]
    folder = tmp_path_factory.mktemp("gnubg")
    return read_by_gnubg(texts, [session.rules for session in SESSIONS], folder)


def test_the_corpus_holds_every_ending(corpus: list[MatchState]) -> None:
    found = set().union(*(endings(state) for state in corpus))
    assert found >= EVERY_ENDING, EVERY_ENDING - found
    assert any(state.rules.is_money for state in corpus)


def test_gnubg_reads_our_files_as_we_played_them(
    corpus: list[MatchState], readings: list[GnubgReading]
) -> None:
    for session, state, reading in zip(SESSIONS, corpus, readings, strict=True):
        ours, gnubgs = events_of_log(state), events_of_gnubg(reading.text)
        assert same_games(ours, gnubgs), (session, _first_difference(ours, gnubgs))
        assert (reading.games, reading.score) == (len(state.games), state.score), session


def test_we_read_gnubgs_files_of_them_as_we_played_them(
    corpus: list[MatchState], readings: list[GnubgReading]
) -> None:
    for session, state, reading in zip(SESSIONS, corpus, readings, strict=True):
        record = read_mat(_with_money_tags(reading.text, session.rules))
        again = replay(record.rules, record.actions)
        assert (record.rules, record.names) == (state.rules, NAMES), session
        ours, read = events_of_log(state), events_of_log(again)
        assert same_games(ours, read), (session, _first_difference(ours, read))
        assert (len(again.games), again.score) == (len(state.games), state.score), session


def _with_money_tags(text: str, rules: MatchRules) -> str:
    """gnubg writes no tags for a money session's rules (it plays them by its own settings),
    so they are put back for our reader, as our export writes them."""
    if not rules.is_money:
        return text
    jacoby, beaver = ("On" if flag else "Off" for flag in (rules.jacoby, rules.beavers))
    return f'; [Jacoby "{jacoby}"]\n; [Beaver "{beaver}"]\n{text}'


def _first_difference(ours: list[list[Event]], theirs: list[list[Event]]) -> object:
    for number, (game, other) in enumerate(zip(ours, theirs, strict=False), start=1):
        for index, (event, seen) in enumerate(zip(game, other, strict=False)):
            if event != seen:
                return (f"game {number}, event {index}", event, seen)
        if len(game) != len(other):
            return (f"game {number}", len(game), len(other))
    return ("games", len(ours), len(theirs))


def test_gnubgs_file_of_a_match_reads_without_gnubg() -> None:
    """A file gnubg wrote of one of our 1-point matches (kept in tests/data): Bob's "6/1 1/0"
    with 5-3 in row 51 is 6/off, which only 6/3 then 3/off (the 5) plays legally."""
    text = (Path(__file__).parent.parent / "data" / "gnubg-1.07-export.mat").read_text()
    record = read_mat(text)
    state = replay(record.rules, record.actions)
    # What the file says: Bob wins 3 points ("Wins 3 points") and the 1-point match.
    assert [(game.winner, game.points) for game in state.games] == [(1, 3)]
    assert state.score == (0, 3)
    moves = [(move.player, move.play) for move in record.actions if isinstance(move, Move)]
    assert moves[-7:] == [  # rows 51 to 54 from Bob's "53: 6/1 1/0", in our notation
        (1, "6/off"),
        (0, "20/18 17/13"),
        (1, "3/off 1/off"),
        (0, "18/16 8/3"),
        (1, "1/off(2)"),
        (0, "23/20 10/6"),
        (1, "1/off"),
    ]
