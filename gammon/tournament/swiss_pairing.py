"""Pairing one Swiss round: top-down by rank, avoiding rematches by an exact search.

The players come ranked (points, then seed). With an odd number, one sits out with a bye:
the lowest-ranked player who has not had one (when everyone has had one, the lowest-ranked
player gets a second). The others are paired top-down: the highest unpaired player meets the
next highest they have not met; when that leaves players who cannot all be paired without a
rematch, the search backs up and tries the next opponent, so a rematch is never paired while a
pairing without one exists. The bye goes up the ranking (to the next lowest-ranked player
without a bye) if that is what it takes to avoid rematches. When no pairing avoids them, the
one with the fewest rematches is taken (the first in top-down order among those, with the
first bye candidate that reaches that fewest).

The search remembers the sets of players it has solved, so it stays small for the sizes and
round counts of a chat tournament (it is exponential only when most pairs have already met).
"""

from __future__ import annotations

from collections.abc import Sequence

Pairs = tuple[tuple[int, int], ...]


def pair_round(
    ranked: Sequence[int], met: frozenset[frozenset[int]], had_bye: frozenset[int]
) -> tuple[Pairs, int | None]:
    """The round's pairs (higher ranked first in each) and the player with the bye, if any."""
    if len(ranked) % 2 == 0:
        return _fewest_rematches(ranked, met)[1], None
    candidates = [p for p in reversed(ranked) if p not in had_bye] or [ranked[-1]]
    best: tuple[int, Pairs, int] | None = None
    for candidate in candidates:
        rematches, pairs = _fewest_rematches([p for p in ranked if p != candidate], met)
        if best is None or rematches < best[0]:
            best = (rematches, pairs, candidate)
        if rematches == 0:
            break
    assert best is not None
    return best[1], best[2]


def _fewest_rematches(ranked: Sequence[int], met: frozenset[frozenset[int]]) -> tuple[int, Pairs]:
    """The top-down pairing of an even number of players with the fewest rematches."""
    solved: dict[int, tuple[int, Pairs]] = {}

    def solve(unpaired: int) -> tuple[int, Pairs]:
        """``unpaired``: a bit per place in ``ranked`` (bit 0: the highest ranked)."""
        if unpaired == 0:
            return 0, ()
        if unpaired in solved:
            return solved[unpaired]
        top = (unpaired & -unpaired).bit_length() - 1
        rest = unpaired & ~(1 << top)
        best: tuple[int, Pairs] | None = None
        for other in range(top + 1, len(ranked)):
            if not rest >> other & 1:
                continue
            cost = frozenset((ranked[top], ranked[other])) in met
            if best is not None and cost >= best[0]:
                continue
            later, pairs = solve(rest & ~(1 << other))
            if best is None or cost + later < best[0]:
                best = (cost + later, ((ranked[top], ranked[other]), *pairs))
                if best[0] == 0:
                    break
        assert best is not None
        solved[unpaired] = best
        return best

    return solve((1 << len(ranked)) - 1)
