"""The order of the entrants at a tournament's start: by rating, or by the dice.

By the dice, the order is a shuffle anyone can check once the seed is revealed at the start:
the entrants in the order they registered (by user id within one moment), then for ``i`` from
the last place down to the second, place ``i`` swaps with place ``j`` = the first 8 bytes of
HMAC-SHA256(server seed, ``"seeding:i"``) as a big-endian number, modulo ``i + 1``. The seed's
commitment (SHA-256) was posted when the tournament opened, before anyone registered.

>>> by_dice([1, 2, 3, 4], bytes(32)) == by_dice([1, 2, 3, 4], bytes(32))
True
>>> sorted(by_dice([1, 2, 3, 4], bytes(32)))
[1, 2, 3, 4]
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence


def by_rating(registered: Sequence[int], ratings: Mapping[int, float]) -> list[int]:
    """Strongest first; equal ratings in the order of registration."""
    order = {player: place for place, player in enumerate(registered)}
    return sorted(registered, key=lambda player: (-ratings[player], order[player]))


def by_dice(registered: Sequence[int], server_seed: bytes) -> list[int]:
    """The registration order shuffled with the server seed (see the module's docstring)."""
    order = list(registered)
    for place in range(len(order) - 1, 0, -1):
        digest = hmac.new(server_seed, f"seeding:{place}".encode(), hashlib.sha256).digest()
        other = int.from_bytes(digest[:8], "big") % (place + 1)
        order[place], order[other] = order[other], order[place]
    return order


def divisions(seeded: Sequence[int], size: int = 8) -> dict[int, int]:
    """A league's first season: the seed order cut into divisions of ``size`` (1 the top);
    a last division of one player joins the one above."""
    placed = {player: place // size + 1 for place, player in enumerate(seeded)}
    count = max(placed.values(), default=1)
    if count > 1 and list(placed.values()).count(count) == 1:
        placed = {player: min(division, count - 1) for player, division in placed.items()}
    return placed
