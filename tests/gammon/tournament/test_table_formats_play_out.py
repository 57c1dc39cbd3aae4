"""Random round robins (with and without playoff), Swiss tournaments and league seasons of 2 to
64 players played to the end, matches started and finished in random order, players
withdrawing at random: one match at a time per player, a started match never changes, every
pair of a group meets once, Swiss avoids rematches and second byes whenever it can, and
every tournament ends with exactly one winner."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.tournament import (
    Format,
    League,
    Lengths,
    Pairing,
    Result,
    RoundRobin,
    Stage,
    Swiss,
    TournamentView,
    walkovers,
)

LENGTHS = Lengths(5, by_stage={Stage.FINAL: 7})


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Format, list[int]]:
    count = draw(st.integers(2, 64))
    entrants = list(range(101, 101 + count))  # seed order: not the order of the ids
    random.Random(draw(st.integers(0, 999))).shuffle(entrants)
    kind = draw(st.sampled_from(["round robin", "swiss", "league"]))
    if kind == "round robin":
        group_size = draw(st.integers(3, 8))
        return RoundRobin(group_size, playoff=draw(st.booleans())), entrants
    if kind == "swiss":
        return Swiss(draw(st.integers(1, 7))), entrants
    fewest = -(-count // 12)  # divisions of at most 12, as a chat league would have
    divisions = draw(st.integers(fewest, max(fewest, min(6, count // 2))))
    sizes = [count // divisions + (index < count % divisions) for index in range(divisions)]
    starts = list(itertools.accumulate([0, *sizes]))
    chunks = [entrants[start:end] for start, end in itertools.pairwise(starts)]
    return League(chunks), entrants


def check_one_match_at_a_time(view: TournamentView, started: dict[str, Pairing]) -> None:
    ready = {pairing.slot.key: pairing for pairing in view.ready}
    for key, pairing in started.items():
        assert ready.get(key) == pairing, f"started match {key} changed or stopped"
    busy = [player for pairing in view.ready for player in pairing.players]
    assert len(busy) == len(set(busy)), "a player could start two matches at once"


def play_out(
    tournament: Format, entrants: list[int], rng: random.Random, withdraw_rate: float
) -> tuple[TournamentView, dict[str, Result], frozenset[int]]:
    results: dict[str, Result] = {}
    withdrawn: set[int] = set()
    started: dict[str, Pairing] = {}
    for _ in range(5000):
        gone = frozenset(withdrawn)
        if gone:
            results.update(walkovers(tournament, entrants, results, gone, LENGTHS))
        started = {key: pairing for key, pairing in started.items() if key not in results}
        view = tournament.view(entrants, results, gone)
        check_one_match_at_a_time(view, started)
        if view.finished:
            return view, results, gone
        assert view.ready, "no match can start but the tournament is not over"
        if rng.random() < withdraw_rate:
            withdrawn.add(rng.choice(entrants))
        for key in sorted(started):  # some running matches end ...
            if rng.random() < 0.5:
                finishing = started.pop(key)
                winner, loser = rng.sample([p for p in finishing.players if p is not None], 2)
                length = LENGTHS.of(finishing.slot)
                results[key] = Result(winner, loser, length, rng.randrange(length))
        for pairing in view.ready:  # ... while others start, before the next view
            key = pairing.slot.key
            if key not in started and key not in results and rng.random() < 0.5:
                started[key] = pairing
    raise AssertionError("the tournament did not end")


def check_tables(view: TournamentView, results: dict[str, Result]) -> None:
    """Every group plays each pair once, and every table counts each match once."""
    for group in {standing.group for standing in view.standings}:
        players = [s.player for s in view.standings if s.group == group]
        pairs = [
            frozenset(p.players)
            for p in view.pairings
            if p.slot.group == group and p.slot.key.startswith(("group", "division"))
        ]
        assert sorted(map(sorted, pairs)) == sorted(
            map(sorted, map(frozenset, itertools.combinations(players, 2)))
        )
    counted = [key for key in results if not key.startswith("playoff")]
    assert sum(s.played for s in view.standings) == 2 * len(counted)
    assert sum(s.won for s in view.standings) == len(counted)


def rematch_free_exists(players: Sequence[int], met: set[frozenset[int]]) -> bool:
    """Brute force: can ``players`` all be paired with no pair in ``met``?"""
    known: dict[frozenset[int], bool] = {}

    def search(left: frozenset[int]) -> bool:
        if not left:
            return True
        if left not in known:
            first = min(left)
            known[left] = any(
                frozenset((first, other)) not in met and search(left - {first, other})
                for other in left - {first}
            )
        return known[left]

    return search(frozenset(players))


def check_swiss(view: TournamentView, rounds: int, withdrawn: frozenset[int]) -> None:
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    played_rounds = sorted({p.slot.round for p in view.pairings})
    assert played_rounds == list(range(1, len(played_rounds) + 1))
    assert len(played_rounds) == rounds or len(withdrawn) == len(view.standings)
    for number in played_rounds:
        this_round = [p for p in view.pairings if p.slot.round == number]
        playing = [player for p in this_round for player in p.players if player is not None]
        assert len(playing) == len(set(playing))
        for bye in (p.players[0] for p in this_round if p.bye):
            assert bye is not None
            assert bye not in had_bye or set(playing) <= had_bye, "an avoidable second bye"
        pairs = [frozenset(p.players) for p in this_round if p.known]
        if any(pair in met for pair in pairs):
            assert len(playing) < 2 * number + 2, "a rematch with many players left"
            candidates = [p for p in playing if p not in had_bye] or playing
            if len(playing) % 2 == 0:
                assert not rematch_free_exists(playing, met)
            else:
                for bye in candidates:
                    assert not rematch_free_exists([p for p in playing if p != bye], met)
        met.update(pairs)
        had_bye.update(p.players[0] for p in this_round if p.bye and p.players[0] is not None)


@settings(max_examples=100, deadline=None)
@given(
    tournaments(),
    st.integers(0, 2**32),
    st.sampled_from([0.0, 0.0, 0.02, 0.1]),
)
def test_random_tournaments_play_out_to_one_winner(
    tournament_and_entrants: tuple[Format, list[int]], seed: int, withdraw_rate: float
) -> None:
    tournament, entrants = tournament_and_entrants
    view, results, withdrawn = play_out(tournament, entrants, random.Random(seed), withdraw_rate)
    assert view.winner in entrants
    assert view.ready == ()
    assert sorted(s.player for s in view.standings) == sorted(entrants)
    assert all(p.slot.key in results for p in view.pairings if p.known)
    if isinstance(tournament, Swiss):
        check_swiss(view, tournament.rounds, withdrawn)
        assert view.winner == view.standings[0].player
    else:
        check_tables(view, results)
    assert tournament.view(entrants, dict(reversed(list(results.items()))), withdrawn) == view
