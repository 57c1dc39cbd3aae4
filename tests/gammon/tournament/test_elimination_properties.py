"""Random single- and double-elimination tournaments played to the end, with random winners and
random withdrawals: whatever happens, the structure stays playable and the paths legal."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.tournament import (
    Bracket,
    DoubleElimination,
    Format,
    Lengths,
    Result,
    SingleElimination,
    TournamentView,
    walkovers,
)

FORMATS: list[Format] = [
    SingleElimination(),
    SingleElimination(consolation=True),
    SingleElimination(consolation=True, last_chance=True),
    DoubleElimination(),
]
LENGTHS = Lengths(5)


def _check_playable(view: TournamentView, results: dict[str, Result]) -> None:
    unfinished = [
        pairing for pairing in view.pairings if not pairing.bye and pairing.slot.key not in results
    ]
    busy = Counter(player for pairing in unfinished for player in pairing.players if player)
    assert all(count == 1 for count in busy.values()), busy
    for pairing in view.ready:
        assert pairing.known
        assert pairing.slot.key not in results
        assert all(busy[player] == 1 for player in pairing.players if player)
    keys = [pairing.slot.key for pairing in view.pairings]
    assert len(keys) == len(set(keys))


def _check_paths(tournament: Format, view: TournamentView, results: dict[str, Result]) -> None:
    """Who lost where, against the format's rule of elimination."""
    bracket_of = {pairing.slot.key: pairing.slot.bracket for pairing in view.pairings}
    losses = Counter((bracket_of[key], result.loser) for key, result in results.items())
    byes = Counter(
        (pairing.slot.bracket, pairing.players[0])
        for pairing in view.pairings
        if pairing.bye and pairing.players[0] is not None
    )
    assert all(count == 1 for count in byes.values()), byes
    if isinstance(tournament, SingleElimination):
        assert all(count == 1 for count in losses.values()), losses
        came_from = {Bracket.CONSOLATION: Bracket.MAIN, Bracket.LAST_CHANCE: Bracket.CONSOLATION}
        for pairing in view.pairings:
            before = came_from.get(pairing.slot.bracket)
            for player in pairing.players if before else ():
                assert player is None or losses[before, player] == 1, (pairing, player)
        return
    total = Counter(result.loser for result in results.values())
    assert all(count <= 2 for count in total.values()), total
    for pairing in view.ready:
        assert all(total[player] < 2 for player in pairing.players if player)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_random_tournaments_play_to_one_winner(data: st.DataObject) -> None:
    tournament = data.draw(st.sampled_from(FORMATS))
    count = data.draw(st.integers(2, 64))
    entrants = data.draw(st.permutations(range(1000, 1000 + count)))
    results: dict[str, Result] = {}
    withdrawn: set[int] = set()
    for _ in range(3 * count + 5):  # every format ends in fewer matches than that
        if data.draw(st.integers(0, 30)) == 0:
            withdrawn.add(data.draw(st.sampled_from(entrants)))
        gone = frozenset(withdrawn)
        if gone:
            results.update(walkovers(tournament, entrants, results, gone, LENGTHS))
        view = tournament.view(entrants, results, gone)
        _check_playable(view, results)
        _check_paths(tournament, view, results)
        if not view.ready:
            break
        assert not any(set(pairing.players) & gone for pairing in view.ready)
        pairing = data.draw(st.sampled_from(view.ready))
        first, second = pairing.players
        assert first is not None
        assert second is not None
        winner, loser = (first, second) if data.draw(st.booleans()) else (second, first)
        results[pairing.slot.key] = Result(winner, loser, 5, data.draw(st.integers(0, 4)))
    else:
        raise AssertionError("the tournament did not end")
    assert view.complete
    assert view.winner is not None
    assert [line.rank for line in view.standings].count(1) == 1
    assert view.standings[0].player == view.winner
    assert not view.standings[0].out or view.winner in withdrawn
    assert all(line.out for line in view.standings[1:])
    matches = [pairing for pairing in view.pairings if not pairing.bye]
    assert {pairing.slot.key for pairing in matches} == set(results)
    assert sum(line.played for line in view.standings) == 2 * len(results)
    assert sum(line.won for line in view.standings) == len(results)
    if isinstance(tournament, DoubleElimination):
        losses = Counter(result.loser for result in results.values())
        assert all(losses[player] == 2 for player in entrants if player != view.winner)
        assert losses[view.winner] == (1 if "grand_final-2-1" in results else 0)
    else:
        main = [result.loser for key, result in results.items() if key.startswith("main-")]
        assert sorted(main) == sorted(set(entrants) - {view.winner})
        assert dict(view.bracket_winners)[Bracket.MAIN] == view.winner
